import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { CALLER, reply, startAgentHarness, type AgentHarness } from '../agent/harness.js';
import { waitUntil } from '../helpers/wait.js';
import { openLiveEvents, sessionFor, type LiveEventReader } from './sse-reader.js';

// Live calls on a simulated agent call (issue 54 item 3): the real core and PBX against the ARI
// simulator, real RTP and VAD, the Ollama and Whisper doubles. The Live page's list and stream
// follow the call from its start to its end, turn by turn, and End call hangs it up.

let h: AgentHarness;
const readers: LiveEventReader[] = [];
beforeAll(async () => {
  h = await startAgentHarness();
});
afterAll(async () => {
  for (const r of readers) r.close();
  await h?.close();
});

const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.';
const HOURS = 'We are open 8am to 6pm, Monday to Friday.';
const caller = (text: string) => ({ after: { agentQuietMs: 1000 }, say: text, onSpeak: () => (h.whisper.defaultTranscript = text) });
const db = () => h.server.database.db;
const client = (userId: number) => sessionFor(db(), h.server.url, userId);
async function stream(userId: number) {
  const r = await openLiveEvents(await client(userId));
  readers.push(r);
  return r;
}

describe('live calls: the Live page follows an agent call', { timeout: 120_000 }, () => {
  it('lists the call from its start to its end, and streams call-started, each turn as committed (in order) and call-ended; another owner sees nothing and gets 404', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    const other = await h.business({ businessName: 'Other Ltd' });
    h.replies([[/open/i, reply('question', true, HOURS)]]);
    const owner = await client(biz.userId);
    const stranger = await client(other.userId);
    const mine = await stream(biz.userId);
    const theirs = await stream(other.userId);
    expect(mine.status).toBe(200);
    expect((await mine.next('snapshot')).data.calls).toEqual([]);

    const placed = h.call(biz.did, [caller('What time do you open on Monday?'), { after: { agentQuietMs: 800 }, hangUp: true }]);
    const started = await mine.next('call-started');
    const callId = started.data.call.id;
    expect(started.data.call).toMatchObject({ mode: 'agent', fromNumber: CALLER, caller: '+44 770 090 0777', staffId: null, forName: null, testCall: false });

    const listed = await owner.get('/api/live/calls');
    expect(listed.status).toBe(200);
    expect(listed.body.calls.map((c: { id: number }) => c.id)).toEqual([callId]);
    // Another business: nothing listed, and End call answers as for a call that does not exist.
    expect((await stranger.get('/api/live/calls')).body.calls).toEqual([]);
    const refused = await stranger.post(`/api/live/calls/${callId}/end`);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('That call is not in progress any more.');

    const { channelId } = await placed;
    await mine.next('call-ended', (d) => d.callId === callId);
    const row = await h.finishedRow(channelId);
    expect(row.id).toBe(callId);

    // The turns as the stream built them are the stored transcript's lines, in order.
    const turns: string[] = [];
    for (const e of mine.events) {
      if (e.name !== 'turn') continue;
      const d = e.data as { callId: number; index: number; turn: { speaker: string; text: string } };
      if (d.callId !== callId) continue;
      turns[d.index] = `${d.turn.speaker === 'caller' ? 'Caller' : 'Agent'}: ${d.turn.text}`;
    }
    expect(turns, JSON.stringify(mine.events.map((e) => e.name))).toEqual([`Agent: ${agentGreeting('Acme Plumbing')}`, 'Caller: What time do you open on Monday?', `Agent: ${HOURS}`]);
    expect(row.transcription).toBe(turns.join('\n'));
    // The caller's turn came before the agent's answer to it.
    const names = mine.events.filter((e) => e.name !== 'turn' || (e.data as { callId: number }).callId === callId).map((e) => e.name);
    expect(names[0]).toBe('snapshot');
    expect(names[1]).toBe('call-started');
    expect(names.at(-1)).toBe('call-ended');

    expect((await owner.get('/api/live/calls')).body.calls).toEqual([]);
    expect(theirs.events.map((e) => e.name)).toEqual(['snapshot']);
  });

  it('End call hangs the caller up; the row finishes as a hang-up with its transcript, and the call’s history says who ended it from the Live page', async () => {
    const email = `live-end-${Date.now()}@example.co.uk`;
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB, email });
    h.replies([[/open/i, reply('question', true, HOURS)]]);
    const owner = await client(biz.userId);
    const mine = await stream(biz.userId);
    // The caller asks, then stays on the line saying nothing more.
    const placed = h.call(biz.did, [caller('What time do you open on Monday?')]);
    const started = await mine.next('call-started');
    const callId = started.data.call.id;
    await mine.next('turn', (d) => d.callId === callId && d.turn.speaker === 'agent' && d.turn.text === HOURS);

    const ended = await owner.post(`/api/live/calls/${callId}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe('Call ended.');
    const { channelId, outcome } = await placed;
    expect(outcome.hungUpBy).toBe('app');
    await mine.next('call-ended', (d) => d.callId === callId);
    const row = await h.finishedRow(channelId);
    expect(row.status).toBe('answered');
    // The stored transcript is what the Live page showed last (the answer may have been cut short by the hang-up).
    const shown: string[] = [];
    for (const e of mine.events) {
      const d = e.data as { callId: number; index: number; turn: { speaker: string; text: string } };
      if (e.name === 'turn' && d.callId === callId) shown[d.index] = `${d.turn.speaker === 'caller' ? 'Caller' : 'Agent'}: ${d.turn.text}`;
    }
    expect(row.transcription).toBe(shown.join('\n'));
    expect(shown.slice(0, 2)).toEqual([`Agent: ${agentGreeting('Acme Plumbing')}`, 'Caller: What time do you open on Monday?']);
    expect(shown[2]).toMatch(/^Agent: We are open 8am to 6pm, Monday to Friday\.( \[interrupted\])?$/);
    expect(row.recordingFile).toBe(`call-${callId}.wav`);

    // The call's live history (call_live_events, beside its listens and take-overs), as Call Details reads it.
    const { callLiveEvents } = tablesOf(db());
    const history = await db().select().from(callLiveEvents).where(and(eq(callLiveEvents.callId, callId), eq(callLiveEvents.userId, biz.userId)));
    expect(history.map((e) => ({ event: e.event, byName: e.byName, via: e.via }))).toEqual([{ event: 'ended', byName: 'the owner', via: null }]);
    const logged = await owner.get(`/api/call-logs/${callId}`);
    expect(logged.body.callLog.liveHistory).toEqual([{ event: 'ended', by: 'the owner', at: history[0]!.at.toISOString() }]);
    // Over: a second press is told so.
    expect((await owner.post(`/api/live/calls/${callId}/end`)).status).toBe(404);
  });
});

describe('live calls: who sees what', { timeout: 60_000 }, () => {
  it("a staff member whose view is 'own' sees only the calls for them, and one as soon as routing names them; 'everything' sees all; End call on another's is 404", async () => {
    const biz = await h.business({ businessName: 'Team Ltd' });
    const { staff, users } = tablesOf(db());
    const login = async (email: string) => (await db().insert(users).values({ email, passwordHash: 'x', role: 'staff', accountStatus: 'active' }).returning())[0]!.id;
    const sarahLogin = await login(`sarah-${biz.userId}@example.co.uk`);
    const ritaLogin = await login(`rita-${biz.userId}@example.co.uk`);
    const [sarah, tom] = await db()
      .insert(staff)
      .values([
        { userId: biz.userId, name: 'Sarah', otherNames: [], view: 'own', loginUserId: sarahLogin },
        { userId: biz.userId, name: 'Tom', otherNames: [], view: 'own' },
        { userId: biz.userId, name: 'Rita', otherNames: [], view: 'everything', loginUserId: ritaLogin },
      ])
      .returning();
    // Calls in progress as the PBX reports them (no channel behind them: End call on them finds none).
    const live = h.server.services.live;
    const base = 900_000 + biz.userId * 10;
    const start = (callId: number) => live.started({ callId, userId: biz.userId, fromNumber: '+447700900123', startedAt: new Date(), mode: 'voicemail', testCall: false });
    start(base + 1);
    start(base + 2);
    live.attributed(base + 1, sarah!.id);
    live.attributed(base + 2, tom!.id);
    await waitUntil(() => {
      if (live.find(base + 1)?.call.forName !== 'Sarah' || live.find(base + 2)?.call.forName !== 'Tom') throw new Error('names not read yet');
    }, 10_000);
    try {
      const sarahClient = await client(sarahLogin);
      const listed = await sarahClient.get('/api/live/calls');
      expect(listed.status).toBe(200);
      expect(listed.body.calls.map((c: { id: number; forName: string }) => [c.id, c.forName])).toEqual([[base + 1, 'Sarah']]);
      const sarahStream = await stream(sarahLogin);
      expect((await sarahStream.next('snapshot')).data.calls.map((c) => c.id)).toEqual([base + 1]);
      expect((await sarahClient.post(`/api/live/calls/${base + 2}/end`)).status).toBe(404);

      // A new call routing then names Sarah for: it comes into her view.
      start(base + 3);
      live.attributed(base + 3, sarah!.id);
      const arrived = await sarahStream.next('call-started', (d) => d.call.id === base + 3);
      expect(arrived.data.call.forName).toBe('Sarah');
      // Tom's call's words never reach her.
      live.line(base + 2, { speaker: 'caller', text: 'For Tom only' });
      live.line(base + 1, { speaker: 'caller', text: 'For Sarah' });
      await sarahStream.next('turn', (d) => d.callId === base + 1);
      expect(sarahStream.events.some((e) => e.name === 'turn' && (e.data as { callId: number }).callId === base + 2)).toBe(false);

      const rita = await client(ritaLogin);
      expect((await rita.get('/api/live/calls')).body.calls.map((c: { id: number }) => c.id).sort()).toEqual([base + 1, base + 2, base + 3]);
      // Another business's owner and the admin see none of them.
      const other = await h.business({ businessName: 'Elsewhere' });
      expect((await (await client(other.userId)).get('/api/live/calls')).body.calls).toEqual([]);
    } finally {
      for (const id of [base + 1, base + 2, base + 3]) live.ended(id);
    }
  });

  it('a sign-in holds at most 5 streams: the 6th gets a clear 429, and one closed makes room again', async () => {
    const biz = await h.business({ businessName: 'Many Tabs Ltd' });
    const five: LiveEventReader[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await stream(biz.userId);
      expect(r.status).toBe(200);
      await r.next('snapshot');
      five.push(r);
    }
    const c = await client(biz.userId);
    const sixth = await c.get('/api/live/events');
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toBe('Live calls are already open in 5 windows for this sign-in. Close one of them and try again.');
    five[0]!.close();
    await five[0]!.ended;
    const again = await waitUntil(async () => {
      const r = await stream(biz.userId);
      if (r.status !== 200) throw new Error(`still ${r.status}`);
      return r;
    }, 10_000);
    expect((await again.next('snapshot')).data.calls).toEqual([]);
  });
});
