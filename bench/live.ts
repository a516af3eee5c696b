// The Live page's feed (issue 54): a turn committed → shown on the owner's Server-Sent Events
// stream, over real HTTP on loopback. The registry is driven as the agent flow drives it
// (pbx/flows/agent/agent-flow.ts onTranscript: the whole dialogue so far, every time it
// changes), and the clients read GET /api/live/events as a browser's EventSource does.
// First one call and one browser, a turn at a time; then CALLS calls at once, each watched by
// STREAMS browsers of the business (tabs, phone, desk). Figures only.
// Run: npx tsx bench/live.ts [turns] [calls] [streams]
import type { LiveLine } from '../core/ports/live-calls.js';
import { insertBusiness } from '../test/pbx-real/business.js';
import { startTestServer } from '../test/helpers/server.js';
import { waitUntil } from '../test/helpers/wait.js';
import { openLiveEvents, sessionFor, type LiveEvent, type LiveEventReader } from '../test/live/sse-reader.js';
import { percentile, report } from './lib/report.js';

const TURNS = Number(process.argv[2] ?? 200);
const CALLS = Number(process.argv[3] ?? 20);
const STREAMS = Number(process.argv[4] ?? 5);

const server = await startTestServer();
const readers: LiveEventReader[] = [];
try {
  const live = server.services.live;
  const db = server.database.db;
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const line = (xs: number[]) => `p50 ${ms(percentile(xs, 50))}, p95 ${ms(percentile(xs, 95))}, max ${ms(Math.max(...xs))}`;
  /** Each turn's text is its own key: "<call>-<n>"; when it was committed, and when each stream showed it. */
  const committedAt = new Map<string, number>();
  const shown: number[] = [];
  const onEvent = (e: LiveEvent) => {
    if (e.name !== 'turn') return;
    const text = (e.data as { turn: { text: string } }).turn.text;
    const key = /turn (\S+)$/.exec(text)?.[1];
    const at = key ? committedAt.get(key) : undefined;
    if (at !== undefined) shown.push(e.at - at);
  };
  const watch = async (userId: number, n: number) => {
    for (let i = 0; i < n; i++) {
      const r = await openLiveEvents(await sessionFor(db, server.url, userId), onEvent);
      if (r.status !== 200) throw new Error(`stream: ${r.status}`);
      await r.next('snapshot');
      readers.push(r);
    }
  };
  /** Commits the next turn of a call as the agent flow does: the whole dialogue so far, the new line last. */
  const dialogues = new Map<number, LiveLine[]>();
  const commit = (callId: number, n: number) => {
    const lines = dialogues.get(callId)!;
    const key = `${callId}-${n}`;
    // Alternate sides, so each commit is a new turn (the same side's lines would be joined into one).
    lines.push({ speaker: n % 2 === 0 ? 'caller' : 'agent', text: `Bench turn ${key}` });
    committedAt.set(key, performance.now());
    live.transcript(callId, lines);
  };
  const startCall = (userId: number, callId: number) => {
    dialogues.set(callId, []);
    live.started({ callId, userId, fromNumber: '+447700900123', startedAt: new Date(), mode: 'agent', testCall: false });
  };

  // One call, one browser, one turn at a time.
  const one = await insertBusiness(db, { businessName: 'Bench One Ltd' });
  await watch(one.userId, 1);
  startCall(one.userId, 1_000_001);
  for (let n = 0; n < TURNS; n++) {
    const before = shown.length;
    commit(1_000_001, n);
    await waitUntil(() => {
      if (shown.length === before) throw new Error('not shown yet');
    }, 30_000, 1);
  }
  const single = shown.splice(0);
  console.log(`${TURNS} turns, one call, one stream, one at a time: committed → shown ${line(single)}`);
  live.ended(1_000_001);

  // CALLS calls at once, each turn to STREAMS browsers of the business.
  const many = await insertBusiness(db, { businessName: 'Bench Many Ltd' });
  await watch(many.userId, STREAMS);
  const ids = Array.from({ length: CALLS }, (_, i) => 2_000_000 + i);
  for (const id of ids) startCall(many.userId, id);
  const rounds = Math.max(1, Math.floor(TURNS / CALLS));
  for (let n = 0; n < rounds; n++) {
    const before = shown.length;
    for (const id of ids) commit(id, n);
    await waitUntil(() => {
      if (shown.length - before < CALLS * STREAMS) throw new Error(`${shown.length - before} of ${CALLS * STREAMS}`);
    }, 60_000, 1);
  }
  const burst = shown.splice(0);
  console.log(`${CALLS} calls committing a turn at once × ${STREAMS} streams (${rounds} rounds, ${burst.length} turns shown): committed → shown ${line(burst)}`);
  for (const id of ids) live.ended(id);

  report({ bench: 'live', measure: 'Live page: turn committed → shown on the SSE stream, one call, one browser (p95)', value: ms(percentile(single, 95)) });
  report({ bench: 'live', measure: `Live page: turn committed → shown, ${CALLS} calls at once × ${STREAMS} browsers (p95)`, value: ms(percentile(burst, 95)) });
} finally {
  for (const r of readers) r.close();
  await server.close();
}
