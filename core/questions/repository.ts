import { and, desc, eq } from 'drizzle-orm';
import type { ApiUnansweredQuestion } from '../../contract/api.js';
import { storedNumber } from '../../contract/phone.js';
import { appendKnowledgeEntry } from '../../dialogue/agent/knowledge-base.js';
import type { Db } from '../db/client.js';
import { unansweredQuestions, users, type UnansweredQuestion } from '../db/schema.js';

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
  };
}

export function listQuestions(db: Db, userId: number): UnansweredQuestion[] {
  return db
    .select()
    .from(unansweredQuestions)
    .where(eq(unansweredQuestions.userId, userId))
    .orderBy(desc(unansweredQuestions.createdAt), desc(unansweredQuestions.id))
    .all();
}

export function findQuestion(db: Db, userId: number, id: number): UnansweredQuestion | undefined {
  return db
    .select()
    .from(unansweredQuestions)
    .where(and(eq(unansweredQuestions.id, id), eq(unansweredQuestions.userId, userId)))
    .get();
}

export interface NewUnansweredQuestion {
  userId: number;
  callId?: number | null;
  question: string;
  callerNumber: string | null;
  aiResponse: string | null;
  createdAt?: Date;
}

/** Used by the agent flow when the model says the knowledge base does not cover a question. */
export function recordUnansweredQuestion(db: Db, q: NewUnansweredQuestion): UnansweredQuestion {
  const callerNumber = q.callerNumber === null ? null : storedNumber(q.callerNumber);
  return db.insert(unansweredQuestions).values({ ...q, callerNumber }).returning().get();
}

export function markResolved(db: Db, userId: number, id: number): UnansweredQuestion | undefined {
  return db
    .update(unansweredQuestions)
    .set({ resolved: true })
    .where(and(eq(unansweredQuestions.id, id), eq(unansweredQuestions.userId, userId)))
    .returning()
    .get();
}

/**
 * Appends "Q: …\nA: …" to the owner's knowledge base and marks the question, in one
 * transaction: the knowledge base never gains an entry whose question still reads Pending.
 * The question is also marked resolved, so the Pending filter no longer lists it.
 */
export function addToKnowledgeBase(
  db: Db,
  userId: number,
  question: UnansweredQuestion,
  answer: string,
): { question: UnansweredQuestion; knowledgeBase: string } {
  return db.transaction(() => {
    const owner = db.select({ knowledgeBase: users.knowledgeBase }).from(users).where(eq(users.id, userId)).get();
    const knowledgeBase = appendKnowledgeEntry(owner?.knowledgeBase, question.question, answer);
    db.update(users).set({ knowledgeBase }).where(eq(users.id, userId)).run();
    const updated = db
      .update(unansweredQuestions)
      .set({ addedToKnowledgeBase: true, resolved: true })
      .where(and(eq(unansweredQuestions.id, question.id), eq(unansweredQuestions.userId, userId)))
      .returning()
      .get()!;
    return { question: updated, knowledgeBase };
  });
}

export function deleteQuestion(db: Db, userId: number, id: number): boolean {
  const res = db
    .delete(unansweredQuestions)
    .where(and(eq(unansweredQuestions.id, id), eq(unansweredQuestions.userId, userId)))
    .run();
  return res.changes > 0;
}
