import { and, desc, eq } from 'drizzle-orm';
import { cap } from '../../contract/cap.js';
import { updateUser } from '../accounts/users.js';
import type { Db } from '../db/client.js';
import { tablesOf, type User } from '../db/schema.js';
import { textProblem } from '../http/text-hygiene.js';
import { callerLabel } from '../notify/message.js';
import { addToKnowledgeBase } from '../questions/repository.js';
import { LIMITS } from '../../contract/rules.js';
import { isWithheldCaller } from '../../contract/withheld.js';
import { REPLIES, type OwnerCommand } from './commands.js';
import type { SenderRole } from './which-business.js';
import { markNumber } from '../screening/marks.js';
import { toE164 } from '../../contract/phone.js';
import { ownerCalledBack } from '../call-backs-store/store.js';

export interface CommandResult {
  /** The text sent back to the owner. */
  reply: string;
  /** What happened, for the inbound_messages row (never the owner's words). */
  outcome: string;
  /** The call the command named, when it named one of the owner's calls. */
  callId: number | null;
  /** The owner's settings changed (AI mode): settingsChanged listeners must hear of it. */
  settingsChanged: boolean;
}

const result = (reply: string, outcome: string, callId: number | null = null, settingsChanged = false): CommandResult => ({
  reply,
  outcome,
  callId,
  settingsChanged,
});

/**
 * Carries out one command, scoped to the owner's business in SQL like the console's routes. From
 * a team member (`member`, issue 58) it acts with their rights: a member who sees only their own
 * calls may act on calls attributed to them alone, and adding to the knowledge base takes the
 * owner or a member who sees everything; switching the AI receptionist is the owner's alone.
 */
export async function runOwnerCommand(db: Db, owner: User, cmd: OwnerCommand, now: Date, member: SenderRole['member'] = null): Promise<CommandResult> {
  const { calls, unansweredQuestions } = tablesOf(db);
  /** The call named, when it is this business's; `theirs` false when the member may not act on it. */
  const namedCall = async (ref: number) => {
    const call = (await db
      .select({ id: calls.id, fromNumber: calls.fromNumber, calledBackAt: calls.calledBackAt, staffId: calls.staffId })
      .from(calls)
      .where(and(eq(calls.id, ref), eq(calls.userId, owner.id))).limit(1))[0];
    return call && { ...call, theirs: !member || member.view === 'everything' || call.staffId === member.id };
  };
  const seesEverything = !member || member.view === 'everything';
  switch (cmd.kind) {
    case 'help':
      return result(REPLIES.help, 'help');
    case 'unknown':
      return result(REPLIES.unknown, 'unknown command');
    case 'done':
    case 'call': {
      if (cmd.ref === null) return result(REPLIES.missingRef(cmd.kind === 'done' ? 'DONE' : 'CALL'), 'no reference');
      const call = await namedCall(cmd.ref);
      // Another business's call answers exactly like a missing one: references do not leak.
      if (!call) return result(REPLIES.noSuchCall(cmd.ref), 'no such call');
      if (!call.theirs) return result(REPLIES.notYours(call.id), 'not their call');
      if (cmd.kind === 'call') {
        if (isWithheldCaller(call.fromNumber)) return result(REPLIES.withheld(call.id), 'withheld number', call.id);
        return result(REPLIES.callBack(call.fromNumber), 'sent the number', call.id);
      }
      if (call.calledBackAt) return result(REPLIES.alreadyDone(call.id), 'already called back', call.id);
      await db.update(calls).set({ calledBackAt: now }).where(and(eq(calls.id, call.id), eq(calls.userId, owner.id)));
      await ownerCalledBack(db, owner.id, call.id, now);
      return result(REPLIES.markedDone(call.id, callerLabel(call.fromNumber)), 'marked called back', call.id);
    }
    case 'kb': {
      if (!seesEverything) return result(REPLIES.kbNotAllowed, 'not allowed: knowledge base');
      if (!cmd.answer) return result(REPLIES.kbMissing, 'no answer');
      const problem = textProblem(cmd.answer, 'multiline');
      if (problem) return result(REPLIES.kbRefused(`it ${problem}`), 'answer refused');
      // "The latest pending unanswered question": the newest one neither resolved nor in the KB.
      const question = (await db
        .select()
        .from(unansweredQuestions)
        .where(and(eq(unansweredQuestions.userId, owner.id), eq(unansweredQuestions.resolved, false), eq(unansweredQuestions.addedToKnowledgeBase, false)))
        .orderBy(desc(unansweredQuestions.createdAt), desc(unansweredQuestions.id))
        .limit(1))[0];
      if (!question) return result(REPLIES.kbNoQuestion, 'no pending question');
      // The same limit as the console's Add to KB (core/questions/routes.ts).
      if ((owner.knowledgeBase ?? '').length + question.question.length + cmd.answer.length + 10 > LIMITS.knowledgeBase) {
        return result(REPLIES.kbFull, 'knowledge base full');
      }
      await addToKnowledgeBase(db, owner.id, question, cmd.answer);
      return result(REPLIES.kbAdded(cap(question.question, 80)), 'added to knowledge base', question.callId);
    }
    case 'spam': {
      const word = cmd.spam ? 'SPAM' : 'NOT SPAM';
      if (cmd.ref === null) return result(REPLIES.missingRef(word), 'no reference');
      const call = await namedCall(cmd.ref);
      if (!call) return result(REPLIES.noSuchCall(cmd.ref), 'no such call');
      if (!call.theirs) return result(REPLIES.notYours(call.id), 'not their call');
      if (isWithheldCaller(call.fromNumber)) return result(REPLIES.spamWithheld(call.id), 'withheld number', call.id);
      // The same marks as Call Details' button (core/screening/routes.ts): that owner's lists only.
      await markNumber(db, owner.id, toE164(call.fromNumber) ?? call.fromNumber, cmd.spam ? 'spam' : 'allow', now);
      const label = callerLabel(call.fromNumber);
      return result(cmd.spam ? REPLIES.markedSpam(call.id, label) : REPLIES.markedNotSpam(call.id, label), cmd.spam ? 'marked spam' : 'marked not spam', call.id);
    }
    case 'agent': {
      if (member) return result(REPLIES.agentOwnerOnly, 'not allowed: agent');
      if (cmd.on === null) return result(REPLIES.agentWhich, 'agent: no mode');
      await updateUser(db, owner.id, { aiMode: cmd.on ? 'agent' : 'voicemail' });
      return result(cmd.on ? REPLIES.agentOn : REPLIES.agentOff, cmd.on ? 'agent on' : 'agent off', null, true);
    }
  }
}
