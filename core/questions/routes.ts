import { AddedToKnowledgeBaseResponse, AddToKnowledgeBaseBody, QuestionResponse, QuestionsResponse } from '../../contract/schemas/questions.js';
import { IdParams, MessageResponse } from '../../contract/schemas/shared.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { callerInView } from '../team/staff-scope.js';
import { callersInView } from '../team/staff-scope-store.js';
import { LIMITS } from '../../contract/rules.js';
import {
  addToKnowledgeBase,
  deleteQuestion,
  findQuestion,
  listQuestions,
  markResolved,
  toApiQuestion,
} from './repository.js';
import { canAddToKnowledgeBase, canResolve, questionState } from './state-rules.js';

const NOT_FOUND = 'Question not found. It may have been deleted.';

/** SPEC.md §7 customer calls for the AI Questions screen. Every query is owner-scoped in SQL. */
export async function questionRoutes(app: App): Promise<void> {
  const { database } = app.services;
  const db = database.db;

  app.get('/api/unanswered-questions', { schema: { response: { 200: QuestionsResponse } } }, async (req) => {
    const user = currentUser(req);
    const inView = await callersInView(db, currentUser(req).id, req.staff);
    const questions = await listQuestions(db, user.id);
    return { questions: questions.filter((q) => callerInView(inView, q.callerNumber)).map(toApiQuestion) };
  });

  app.patch('/api/unanswered-questions/:id/resolve', { schema: { params: IdParams, response: { 200: QuestionResponse } } }, async (req) => {
    const user = currentUser(req);
    const found = await findQuestion(db, user.id, req.params.id);
    const inView = await callersInView(db, currentUser(req).id, req.staff);
    if (!found || !callerInView(inView, found.callerNumber)) throw notFound(NOT_FOUND);
    const verdict = canResolve(questionState(found));
    if (!verdict.ok) throw conflict(verdict.message);
    const question = verdict.change ? (await markResolved(db, user.id, found.id))! : found;
    return { question: toApiQuestion(question), message: 'Question resolved' };
  });

  app.patch(
    '/api/unanswered-questions/:id/add-to-kb',
    { schema: { params: IdParams, body: AddToKnowledgeBaseBody, response: { 200: AddedToKnowledgeBaseResponse } } },
    async (req) => {
      const user = currentUser(req);
      // SPEC.md §5: the trimmed answer must not be empty, and the trimmed answer is what is stored.
      const answer = req.body.answer.trim();
      if (!answer) throw badRequest('Please enter an answer before adding it to the knowledge base.', { answer: 'Answer is required' });
      const found = await findQuestion(db, user.id, req.params.id);
      if (!found) throw notFound(NOT_FOUND);
      const verdict = canAddToKnowledgeBase(questionState(found));
      if (!verdict.ok) throw conflict(verdict.message);
      const projectedLength = (user.knowledgeBase ?? '').length + found.question.length + answer.length + 10;
      if (projectedLength > LIMITS.knowledgeBase) {
        throw badRequest('Knowledge base must be at most 50,000 characters. Shorten some entries under Notification Settings first.');
      }
      const { question, knowledgeBase } = await addToKnowledgeBase(db, user.id, found, answer);
      return { question: toApiQuestion(question), knowledgeBase, message: 'Added to knowledge base' };
    },
  );

  app.delete('/api/unanswered-questions/:id', { schema: { params: IdParams, response: { 200: MessageResponse } } }, async (req) => {
    const user = currentUser(req);
    if (!(await deleteQuestion(db, user.id, req.params.id))) throw notFound(NOT_FOUND);
    return { message: 'Question deleted' };
  });
}
