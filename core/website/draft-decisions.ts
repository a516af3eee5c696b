import { and, asc, eq } from 'drizzle-orm';
import { LIMITS } from '../../contract/rules.js';
import type { ApiDraftApprove, ApiDraftDecision } from '../../contract/website.js';
import { audit } from '../audit/audit.js';
import { loadCallHandling, saveCallHandling, transferGuard } from '../call-handling/store.js';
import { validateCallHandling } from '../call-handling/validate.js';
import type { OutboundAllowList } from '../outbound/dialable.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { lockOwner, transaction } from '../db/transaction.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import { withApprovedEntry } from './knowledge-writes.js';
import { pendingDrafts, toApiDraft } from './store.js';

// The owner's decisions on drafts: approving writes the knowledge base (and, for opening hours
// the owner asks for, Call Handling) in the same transaction as the draft's state, so the agent
// never reads an entry whose draft still reads pending, nor the other way round.

export interface DecisionDeps {
  db: Db;
  now: () => Date;
  outboundAllow: OutboundAllowList;
}

type DraftRow = ReturnType<typeof tablesOf>['kbDrafts']['$inferSelect'];

const ALREADY_DECIDED = 'This draft has already been approved or rejected.';
const NOT_FOR_CALL_HANDLING = 'Only opening hours read from your website can be used for Call Handling.';
const KB_FULL = `Your knowledge base would be longer than ${LIMITS.knowledgeBase.toLocaleString('en-GB')} characters; shorten it before approving more.`;

async function owner(db: Db, userId: number) {
  const { users } = tablesOf(db);
  return (await db.select({ id: users.id, email: users.email, knowledgeBase: users.knowledgeBase }).from(users).where(eq(users.id, userId)).limit(1))[0]!;
}

async function answer(db: Db, userId: number, knowledgeBase: string, decided: number): Promise<ApiDraftDecision> {
  return { knowledgeBase, drafts: (await pendingDrafts(db, userId)).map(toApiDraft), decided };
}

/** Writes each draft (with the owner's edit for the one decided alone) into the knowledge base text. */
function written(knowledgeBase: string | null, drafts: Array<{ row: DraftRow; question: string; answer: string }>) {
  let kb = knowledgeBase;
  const replaced: number[] = [];
  for (const { row, question, answer } of drafts) {
    const r = withApprovedEntry(kb, { kind: row.kind, question, answer, currentQuestion: row.currentQuestion, currentAnswer: row.currentAnswer });
    kb = r.knowledgeBase;
    if (r.replaced) replaced.push(row.id);
  }
  if ((kb ?? '').length > LIMITS.knowledgeBase) throw badRequest(KB_FULL);
  return { knowledgeBase: kb ?? '', replaced };
}

export async function approveDraft(deps: DecisionDeps, userId: number, draftId: number, edit: ApiDraftApprove): Promise<ApiDraftDecision> {
  const { db, now } = deps;
  const { kbDrafts, users } = tablesOf(db);
  return transaction(db, async () => {
    await lockOwner(db, userId); // two approvals at once (two tabs, two cores) both land in the text
    const row = (await db.select().from(kbDrafts).where(and(eq(kbDrafts.id, draftId), eq(kbDrafts.userId, userId))).limit(1))[0];
    if (!row) throw notFound('No such draft.');
    if (row.state !== 'pending') throw conflict(ALREADY_DECIDED);
    const question = edit.question?.trim() || row.question;
    const answerText = edit.answer?.trim() || row.answer;
    if (edit.useForCallHandling) {
      if (row.kind !== 'hours' || !row.hours) throw badRequest(NOT_FOR_CALL_HANDLING);
      // Call Handling's own rules decide (spans, overlaps), as if the owner had typed the hours there.
      const checked = validateCallHandling({ hours: row.hours }, await loadCallHandling(db, userId), await transferGuard(db, userId, deps.outboundAllow));
      if ('message' in checked) throw badRequest(checked.message, { [checked.field]: checked.message });
      await saveCallHandling(db, userId, { ...checked, hoursEnabled: true }, now());
    }
    const me = await owner(db, userId);
    const { knowledgeBase, replaced } = written(me.knowledgeBase, [{ row, question, answer: answerText }]);
    await db.update(users).set({ knowledgeBase }).where(eq(users.id, userId));
    await db.update(kbDrafts).set({ state: 'approved', question, answer: answerText, decidedAt: now() }).where(eq(kbDrafts.id, row.id));
    await audit(db, me, 'website.draft.approve', me, {
      draftId: row.id, kind: row.kind, sourceUrl: row.sourceUrl, edited: question !== row.question || answerText !== row.answer,
      replacedEntry: replaced.length > 0, callHandlingHours: !!edit.useForCallHandling,
    }, now());
    return answer(db, userId, knowledgeBase, 1);
  });
}

export async function rejectDraft(deps: DecisionDeps, userId: number, draftId: number): Promise<ApiDraftDecision> {
  const { db, now } = deps;
  const { kbDrafts } = tablesOf(db);
  return transaction(db, async () => {
    await lockOwner(db, userId);
    const row = (await db.select().from(kbDrafts).where(and(eq(kbDrafts.id, draftId), eq(kbDrafts.userId, userId))).limit(1))[0];
    if (!row) throw notFound('No such draft.');
    if (row.state !== 'pending') throw conflict(ALREADY_DECIDED);
    await db.update(kbDrafts).set({ state: 'rejected', decidedAt: now() }).where(eq(kbDrafts.id, row.id));
    const me = await owner(db, userId);
    await audit(db, me, 'website.draft.reject', me, { draftId: row.id, kind: row.kind, sourceUrl: row.sourceUrl }, now());
    return answer(db, userId, me.knowledgeBase ?? '', 1);
  });
}

/** Approves every pending draft as drafted, oldest first (Call Handling's hours are only changed one draft at a time, on purpose). */
export async function approveAll(deps: DecisionDeps, userId: number): Promise<ApiDraftDecision> {
  const { db, now } = deps;
  const { kbDrafts, users } = tablesOf(db);
  return transaction(db, async () => {
    await lockOwner(db, userId);
    const rows = await db.select().from(kbDrafts).where(and(eq(kbDrafts.userId, userId), eq(kbDrafts.state, 'pending'))).orderBy(asc(kbDrafts.createdAt), asc(kbDrafts.id));
    const me = await owner(db, userId);
    if (!rows.length) return answer(db, userId, me.knowledgeBase ?? '', 0);
    const { knowledgeBase, replaced } = written(me.knowledgeBase, rows.map((row) => ({ row, question: row.question, answer: row.answer })));
    await db.update(users).set({ knowledgeBase }).where(eq(users.id, userId));
    const t = now();
    await db.update(kbDrafts).set({ state: 'approved', decidedAt: t }).where(and(eq(kbDrafts.userId, userId), eq(kbDrafts.state, 'pending')));
    await audit(db, me, 'website.draft.approve', me, { draftIds: rows.map((r) => r.id), replacedEntries: replaced }, t);
    return answer(db, userId, knowledgeBase, rows.length);
  });
}

export async function rejectAll(deps: DecisionDeps, userId: number): Promise<ApiDraftDecision> {
  const { db, now } = deps;
  const { kbDrafts } = tablesOf(db);
  return transaction(db, async () => {
    await lockOwner(db, userId);
    const rejected = await db.update(kbDrafts).set({ state: 'rejected', decidedAt: now() }).where(and(eq(kbDrafts.userId, userId), eq(kbDrafts.state, 'pending'))).returning({ id: kbDrafts.id });
    const me = await owner(db, userId);
    if (rejected.length) await audit(db, me, 'website.draft.reject', me, { draftIds: rejected.map((r) => r.id) }, now());
    return answer(db, userId, me.knowledgeBase ?? '', rejected.length);
  });
}
