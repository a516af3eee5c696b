// Writes on the caller questions the agent could not answer.
import { apiRequest } from './client';

export const addQuestionToKb = (id: number, answer: string) => apiRequest('PATCH', `/api/unanswered-questions/${id}/add-to-kb`, { answer });

export const resolveQuestion = (id: number) => apiRequest('PATCH', `/api/unanswered-questions/${id}/resolve`);

export const deleteQuestion = (id: number) => apiRequest('DELETE', `/api/unanswered-questions/${id}`);
