// The database locked by another process (a backup, an operator's sqlite3 shell) in the middle
// of an agent call (issue 15). The agent writes during the call (an unanswered question the
// moment the turn is committed, the dialogue when it ends): those writes go through the
// core's call path, which waits out the lock between short attempts instead of sleeping on
// the one thread the RTP audio, the VAD and the ARI events share for the busy timeout (5 s,
// left as the appliance sets it here). The lock is real: `BEGIN EXCLUSIVE` held by a
// separate process on the same file. The call runs on the ARI simulator with real RTP.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { busyRefusals, sqliteOf } from '../../core/db/client.js';
import { calls } from '../helpers/tables.js';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { CALLER, reply, startAgentHarness, type AgentHarness } from '../agent/harness.js';
import { startLockHolder, type LockHolder } from '../helpers/lock-holder.js';

let h: AgentHarness;
let holder: LockHolder;
beforeAll(async () => {
  h = await startAgentHarness();
  holder = await startLockHolder(path.join(h.server.dataDir, 'appliance.db'));
});
afterAll(async () => {
  holder?.stop();
  await h?.close();
});

const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.';
const QUESTION = 'Do you service swimming pool heaters?';
const GOODBYE = 'Goodbye.';
const say = (text: string) => ({ after: { agentQuietMs: 1000 }, say: text, onSpeak: () => (h.whisper.defaultTranscript = text) });

describe('the database locked by another process during an agent call', { timeout: 120_000 }, () => {
  it('the agent keeps talking with the event loop free, and the question and the dialogue land once the lock goes', async () => {
    const biz = await h.business({ businessName: 'Lockout Pools', knowledgeBase: KB });
    h.replies([
      [/swimming pool/i, reply('question', false, '')],
      [/goodbye/i, reply('goodbye', true, GOODBYE)],
    ]);
    const db = h.server.database.db;
    const busyTimeoutMs = sqliteOf(h.server.database).pragma('busy_timeout', { simple: true }) as number;
    const placed = h.call(biz.did, [say(QUESTION), say('No, thank you, goodbye.'), { after: { ms: 30_000 }, hangUp: true }]);

    // The row is open and the greeting is playing: the backup takes the lock now.
    const open = await vi.waitFor(
      async () => {
        const row = (await db.select().from(calls).where(eq(calls.toNumber, biz.did)).limit(1))[0];
        if (!row) throw new Error('no call row yet');
        return row;
      },
      { timeout: 20_000 },
    );
    const refusedBefore = busyRefusals(db);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    await holder.lock();
    loopDelay.enable();

    // The whole conversation happens while the lock is held: the caller is hung up on after the goodbye.
    const { channelId, outcome, session } = await placed;
    loopDelay.disable();
    expect(channelId).toBe(open.channelId);
    expect(outcome.hungUpBy).toBe('app');
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.notAnswered))).toBe(true);
    expect(session.heardAudio(await h.agentAudio(GOODBYE))).toBe(true);
    // The agent's writes were refused as busy and are being retried, nothing has landed yet…
    await vi.waitFor(() => expect(busyRefusals(db)).toBeGreaterThan(refusedBefore), { timeout: 20_000 });
    expect(await h.unanswered(biz.userId)).toEqual([]);
    expect((await db.select().from(calls).where(eq(calls.id, open.id)).limit(1))[0]).toMatchObject({ transcription: null, endedAt: null });
    // …and no write slept on the thread for the busy timeout while the caller was talking to the agent.
    const worstStallMs = loopDelay.max / 1e6;
    console.log(`event loop: worst stall ${worstStallMs.toFixed(0)} ms while the database was locked (busy timeout ${busyTimeoutMs} ms)`);
    expect(worstStallMs).toBeLessThan(busyTimeoutMs);

    await holder.unlock();
    const row = await h.finishedRow(channelId);
    expect(row).toMatchObject({ id: open.id, status: 'answered', mode: 'agent' });
    expect(row.transcription).toBe(
      [`Agent: ${agentGreeting('Lockout Pools')}`, `Caller: ${QUESTION}`, `Agent: ${AGENT_LINES.notAnswered}`, 'Caller: No, thank you, goodbye.', `Agent: ${GOODBYE}`].join('\n'),
    );
    const questions = await h.unanswered(biz.userId);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ callId: row.id, question: QUESTION, callerNumber: CALLER, aiResponse: AGENT_LINES.notAnswered });
    expect(h.finished.filter((id) => id === row.id)).toHaveLength(1);
    expect(h.protocolProblems()).toEqual([]);
  });
});
