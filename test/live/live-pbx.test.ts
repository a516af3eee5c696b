// The Live page on the real Asterisk 20.17.0 (issue 54 item 3): a SIPp caller talks with the
// agent while the test reads GET /api/live/events as the owner's browser would. The stream
// shows the call, the caller's words (what the Whisper double recognised) and the agent's
// answers as they are said, in order; End call hangs the caller up from the box (SIPp gets the
// BYE), the stream says the call ended and the row is finished with its recording.
// Whisper and Ollama are doubles; everything else is real.
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { askAgent, hearsAgent } from '../pbx-real/agent-caller.js';
import { readWavSamples } from '../pbx-real/audio.js';
import { ANSWERS_ONLY, CALLER, realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { openLiveEvents, sessionFor, type LiveEvent, type LiveEventReader } from './sse-reader.js';

const real = realPbxAvailability();

const HOURS = 'We are open from eight in the morning to six in the evening, Monday to Friday.';
const AREAS = 'We cover Leeds, York and Harrogate.';
const KB = `Q: What are your opening hours?\nA: ${HOURS}\n\nQ: What areas do you cover?\nA: ${AREAS}`;
const reply = (answer: string) => JSON.stringify({ intent: 'question', answered: true, answer });
const Q1 = 'What are your opening hours?';
const Q2 = 'What areas do you cover?';

type TurnData = { callId: number; index: number; turn: { speaker: string; text: string } };
/** The call's turns as the stream built them ("Caller: …" / "Agent: …"), each the latest version of its index. */
function turnsOf(events: readonly LiveEvent[], callId: number): string[] {
  const out: string[] = [];
  for (const e of events) {
    const d = e.data as TurnData;
    if (e.name === 'turn' && d.callId === callId) out[d.index] = `${d.turn.speaker === 'caller' ? 'Caller' : 'Agent'}: ${d.turn.text}`;
  }
  return out;
}
/** Where in the stream the turn saying `text` first arrived whole. */
function arrivedAt(events: readonly LiveEvent[], callId: number, speaker: string, text: string): number {
  return events.findIndex((e) => e.name === 'turn' && (e.data as TurnData).callId === callId && (e.data as TurnData).turn.speaker === speaker && (e.data as TurnData).turn.text === text);
}

describe.skipIf(!real.ok)('the Live page on a real Asterisk: the feed and End call', { timeout: 300_000 }, () => {
  let h: RealPbx;
  const readers: LiveEventReader[] = [];
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, env: ANSWERS_ONLY });
    h.ollama.replier = (req) => {
      const last = (req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '';
      if (/opening hours/i.test(last)) return reply(HOURS);
      if (/areas/i.test(last)) return reply(AREAS);
      return JSON.stringify({ intent: 'question', answered: false, answer: '' });
    };
  }, 180_000);
  afterAll(async () => {
    for (const r of readers) r.close();
    await h?.close();
  });

  it('streams call-started, the caller’s words and the agent’s answers as they are said; End call sends the caller a BYE, call-ended follows and the row is finished with its recording; another owner gets 404', async () => {
    const { did, userId } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const other = await h.business({ businessName: 'Other Ltd' });
    const db = h.server.database.db;
    const owner = await sessionFor(db, h.server.url, userId);
    const stranger = await sessionFor(db, h.server.url, other.userId);
    const mine = await openLiveEvents(owner);
    const theirs = await openLiveEvents(stranger);
    readers.push(mine, theirs);
    expect(mine.status).toBe(200);
    expect((await mine.next('snapshot')).data.calls).toEqual([]);

    const call = await h.call(did);
    const started = await mine.next('call-started', undefined, 0, 60_000);
    const callId = started.data.call.id;
    expect(started.data.call).toMatchObject({ mode: 'agent', fromNumber: CALLER, staffId: null, forName: null, testCall: false });

    // Each turn shows on the stream while the call goes on: the caller's words before the agent answers them.
    const greeting = agentGreeting('Hale Plumbing');
    await hearsAgent(h, call, 0, greeting);
    await mine.next('turn', (d) => d.callId === callId && d.turn.speaker === 'agent' && d.turn.text === greeting, 0, 60_000);
    const q1 = await askAgent(h, call, Q1);
    await mine.next('turn', (d) => d.callId === callId && d.turn.speaker === 'caller' && d.turn.text === Q1, 0, 60_000);
    await hearsAgent(h, call, q1.endedAt, HOURS);
    await mine.next('turn', (d) => d.callId === callId && d.turn.speaker === 'agent' && d.turn.text === HOURS, 0, 60_000);
    const q2 = await askAgent(h, call, Q2);
    await mine.next('turn', (d) => d.callId === callId && d.turn.speaker === 'caller' && d.turn.text === Q2, 0, 60_000);
    await hearsAgent(h, call, q2.endedAt, AREAS);
    await mine.next('turn', (d) => d.callId === callId && d.turn.speaker === 'agent' && d.turn.text === AREAS, 0, 60_000);

    expect(turnsOf(mine.events, callId)).toEqual([`Agent: ${greeting}`, `Caller: ${Q1}`, `Agent: ${HOURS}`, `Caller: ${Q2}`, `Agent: ${AREAS}`]);
    const order = [arrivedAt(mine.events, callId, 'agent', greeting), arrivedAt(mine.events, callId, 'caller', Q1), arrivedAt(mine.events, callId, 'agent', HOURS), arrivedAt(mine.events, callId, 'caller', Q2), arrivedAt(mine.events, callId, 'agent', AREAS)];
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)), JSON.stringify(order)).toBe(true);
    expect(mine.events.findIndex((e) => e.name === 'call-started')).toBeLessThan(order[0]!);

    // Another business's owner: the call is not theirs to end, and was never on their stream.
    const refused = await stranger.post(`/api/live/calls/${callId}/end`);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('That call is not in progress any more.');

    const ended = await owner.post(`/api/live/calls/${callId}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe('Call ended.');
    // The test never told SIPp to hang up: its scenario ends cleanly only on the box's BYE, answered 200 OK.
    const sipp = await call.done;
    expect(sipp.exitCode, sipp.errors).toBe(0);
    await mine.next('call-ended', (d) => d.callId === callId, 0, 60_000);

    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ id: callId, status: 'answered', mode: 'agent', recordingFile: `call-${callId}.wav` });
    expect(row.endedAt).not.toBeNull();
    expect(row.transcription).toBe(turnsOf(mine.events, callId).join('\n'));
    const recording = path.join(h.server.dataDir, 'recordings', row.recordingFile!);
    expect(fs.existsSync(recording)).toBe(true);
    expect(readWavSamples(recording).length).toBeGreaterThan(8000); // over a second of the call at 8 kHz

    // In the call's own history (call_live_events), as Call Details shows it.
    const { callLiveEvents } = tablesOf(db);
    const history = await db.select().from(callLiveEvents).where(and(eq(callLiveEvents.callId, callId), eq(callLiveEvents.userId, userId)));
    expect(history.map((h) => ({ event: h.event, byName: h.byName }))).toEqual([{ event: 'ended', byName: 'the owner' }]);
    expect((await owner.get('/api/live/calls')).body.calls).toEqual([]);
    expect((await owner.post(`/api/live/calls/${callId}/end`)).status).toBe(404);
    expect(theirs.events.map((e) => e.name)).toEqual(['snapshot']);
  });
});
