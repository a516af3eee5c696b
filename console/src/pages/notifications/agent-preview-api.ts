// The "try the agent" call, through the console's one API client module.
import type { VoicePreference } from '../../../../contract/api';
import { apiRequest } from '../../api/client';

export interface AgentPreviewRequest {
  question: string;
  knowledgeBase: string;
  businessName?: string | null;
  voice?: VoicePreference;
}

export interface AgentPreviewResult {
  /** Exactly what a caller would hear. */
  answer: string;
  /** False when the knowledge base does not cover the question (a caller's would be logged). */
  answered: boolean;
  /** The answer spoken in the chosen voice, when the voice engine is available. */
  audioUrl?: string;
}

export const previewAgent = (body: AgentPreviewRequest) => apiRequest<AgentPreviewResult>('POST', '/api/agent/preview', body);
