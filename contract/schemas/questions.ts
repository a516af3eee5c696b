// The AI Questions screen (core/questions/routes.ts).
import { Type } from 'typebox';
import { Nullable } from './shared.js';

export const ApiUnansweredQuestionSchema = Type.Object({
  id: Type.Integer(),
  question: Type.String(),
  callerNumber: Nullable(Type.String()),
  aiResponse: Nullable(Type.String()),
  createdAt: Type.String(),
  resolved: Type.Boolean(),
  addedToKnowledgeBase: Type.Boolean(),
  /** Asked in another language (issue 42): the caller's own words (`question` is their English) and the language's code. */
  originalQuestion: Nullable(Type.String()),
  language: Nullable(Type.String()),
});

export const QuestionsResponse = Type.Object({ questions: Type.Array(ApiUnansweredQuestionSchema) });
export const QuestionResponse = Type.Object({ question: ApiUnansweredQuestionSchema, message: Type.String() });

export const AddToKnowledgeBaseBody = Type.Object({ answer: Type.String({ maxLength: 5000, multiline: true }) }, { additionalProperties: false });
/** The whole knowledge base after the append, so the settings form can show it. */
export const AddedToKnowledgeBaseResponse = Type.Object({
  question: ApiUnansweredQuestionSchema,
  knowledgeBase: Type.String(),
  message: Type.String(),
});
