// Issue 56: a caller asks the agent to ring them back, on the ARI simulator with the Ollama and
// Whisper doubles (test/agent's harness), on SQLite and (TEST_DATABASE=postgres) PostgreSQL. The
// server's clock is Thursday 10 December 2026, 10am (GMT): "after four" is 4pm that day, agreed by
// code and said in its one fixed sentence; with the owner ringing back the agent does as before.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallBacksBy } from '../../contract/call-backs.js';
import { defaultCallHandling } from '../../core/call-handling/defaults.js';
import { saveCallHandling } from '../../core/call-handling/store.js';
import { tablesOf } from '../../core/db/schema.js';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { CALLER, reply, startAgentHarness, type AgentHarness } from '../agent/harness.js';

const WORDS = 'could you ring me back after four';
const LINE = "I'll ring you back at 4pm today from this number.";
const THURSDAY_TEN = Date.parse('2026-12-10T10:00:00Z');
const OWNER_LINE = "I'll make sure they get your message.";

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness();
  h.server.clock.offsetMs = THURSDAY_TEN - Date.now();
});
afterAll(async () => {
  await h?.close();
});

async function businessRingingBack(by: CallBacksBy) {
  const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: 'Q: Where are you?\nA: Leeds.', voicePreference: 'female' });
  await saveCallHandling(h.server.database.db, biz.userId, { ...defaultCallHandling(), callBacksBy: by }, new Date(THURSDAY_TEN));
  return biz;
}

/** The caller asks to be rung back, waits for the answer, and hangs up. */
async function askToBeRungBack(did: string) {
  return h.call(did, [
    { after: { agentQuietMs: 1000 }, say: WORDS, onSpeak: () => (h.whisper.defaultTranscript = WORDS) },
    { after: { agentQuietMs: 1500 }, hangUp: true },
  ]);
}

const callBacksOf = async (userId: number) => {
  const { callBacks } = tablesOf(h.server.database.db);
  return h.server.database.db.select().from(callBacks).where(eq(callBacks.userId, userId));
};

describe('a caller asks the agent to ring them back', { timeout: 120_000 }, () => {
  it("with 'agent-at-time': the agent says the agreed time exactly, and the call-back is due at 4pm London that day", async () => {
    const biz = await businessRingingBack('agent-at-time');
    // Were the model asked, it would say something else: the line must come from code.
    h.replies([[/ring me back/i, reply('message', false, OWNER_LINE)]]);
    const { channelId, session } = await askToBeRungBack(biz.did);
    const row = await h.finishedRow(channelId);
    expect(row.transcription).toContain(`Caller: ${WORDS}\nAgent: ${LINE}`);
    expect(row.transcription).not.toContain(fixedLines('en').lines.takeMessage);
    expect(session.heardAudio(await h.agentAudio(LINE))).toBe(true);
    expect(await callBacksOf(biz.userId)).toEqual([
      expect.objectContaining({ source: 'agent', firstCallId: row.id, textId: null, callerNumber: CALLER, state: 'waiting', dueAt: new Date('2026-12-10T16:00:00Z') }),
    ]);
    expect(h.protocolProblems()).toEqual([]);
  });

  it("with 'owner': the model's reply leads as before (a message is taken) and no call-back is recorded", async () => {
    const biz = await businessRingingBack('owner');
    h.replies([[/ring me back/i, reply('message', false, OWNER_LINE)]]);
    const { channelId } = await askToBeRungBack(biz.did);
    const row = await h.finishedRow(channelId);
    expect(row.transcription).toContain(`Caller: ${WORDS}\nAgent: ${fixedLines('en').lines.takeMessage}`);
    expect(row.transcription).not.toContain("I'll ring you back");
    expect(await callBacksOf(biz.userId)).toEqual([]);
  });
});
