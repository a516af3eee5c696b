import { and, desc, eq } from 'drizzle-orm';
import type { ApiUnansweredQuestion } from '../../contract/api.js';
import { storedNumber } from '../../contract/phone.js';
import { appendKnowledgeEntry } from '../../dialogue/agent/knowledge-base.js';
import type { Db } from '../db/client.js';
import { tablesOf, type UnansweredQuestion } from '../db/schema.js';
import { lockOwner, transaction } from '../db/transaction.js';
import { rowsAffected } from '../db/raw.js';

// Every query takes the owner's id and filters on it in SQL (DESIGN.md, Data):
// another owner's question id simply does not exist for this caller.

export function toApiQuestion(q: UnansweredQuestion): ApiUnansweredQuestion {
  return {
    id: q.id,
    question: q.question,
    callerNumber: q.callerNumber,
    aiResponse: q.aiResponse,
    createdAt: q.createdAt.toISOString(),
    resolved: q.resolved,
    addedToKnowledgeBase: q.addedToKnowledgeBase,
    originalQuestion: q.originalQuestion,
    language: q.language,
  };
}

export async function listQuestions(db: Db, userId: number): Promise<UnansweredQuestion[]> {
  const { unansweredQuestions } = tablesOf(db);
  return await db
    .select()
    .from(unansweredQuestions)
    .where(eq(unansweredQuestions.userId, userId))
    .orderBy(desc(unansweredQuestions.createdAt), desc(unansweredQuestions.id));
}

export async function findQuestion(db: Db, userId: number, id: number): Promise<UnansweredQuestion | undefined> {
  const { unansweredQuestions } = tablesOf(db);
  return (await db
    .select()
    .from(unansweredQuestions)
    .where(and(eq(unansweredQuestions.id, id), eq(unansweredQuestions.userId, userId))).limit(1))[0];
}

export interface NewUnansweredQuestion {
  userId: number;
  callId?: number | null;
  question: string;
  callerNumber: string | null;
  aiResponse: string | null;
  createdAt?: Date;
  /** Asked in another language: the caller's words (then `question` is their English) and the language's code. */
  originalQuestion?: string | null;
  language?: string | null;
}

/** Used by the agent flow when the model says the knowledge base does not cover a question. */
export async function recordUnansweredQuestion(db: Db, q: NewUnansweredQuestion): Promise<UnansweredQuestion> {
  const { unansweredQuestions } = tablesOf(db);
  const callerNumber = q.callerNumber === null ? null : storedNumber(q.callerNumber);
  return (await db.insert(unansweredQuestions).values({ ...q, callerNumber }).returning())[0]!;
}

export async function markResolved(db: Db, userId: number, id: number): Promise<UnansweredQuestion | undefined> {
  const { unansweredQuestions } = tablesOf(db);
  return (await db
    .update(unansweredQuestions)
    .set({ resolved: true })
    .where(and(eq(unansweredQuestions.id, id), eq(unansweredQuestions.userId, userId)))
    .returning())[0];
}

/**
 * Appends "Q: …\nA: …" to the owner's knowledge base and marks the question, in one
 * transaction: the knowledge base never gains an entry whose question still reads Pending.
 * The question is also marked resolved, so the Pending filter no longer lists it.
 */
export async function addToKnowledgeBase(
  db: Db,
  userId: number,
  question: UnansweredQuestion,
  answer: string,

): Promise<{ question: UnansweredQuestion; knowledgeBase: string }> {
  const { unansweredQuestions, users } = tablesOf(db);
  return transaction(db, async () => {
    await lockOwner(db, userId); // two answers added at once (two tabs, two cores) both land
    const owner = (await db.select({ knowledgeBase: users.knowledgeBase }).from(users).where(eq(users.id, userId)).limit(1))[0];
    const knowledgeBase = appendKnowledgeEntry(owner?.knowledgeBase, question.question, answer);
    await db.update(users).set({ knowledgeBase }).where(eq(users.id, userId));
    const updated = (await db
      .update(unansweredQuestions)
      .set({ addedToKnowledgeBase: true, resolved: true })
      .where(and(eq(unansweredQuestions.id, question.id), eq(unansweredQuestions.userId, userId)))
      .returning())[0]!;
    return { question: updated, knowledgeBase };
  });
}

export async function deleteQuestion(db: Db, userId: number, id: number): Promise<boolean> {
  const { unansweredQuestions } = tablesOf(db);
  const res = await db
    .delete(unansweredQuestions)
    .where(and(eq(unansweredQuestions.id, id), eq(unansweredQuestions.userId, userId)));
  return rowsAffected(res) > 0;
}
