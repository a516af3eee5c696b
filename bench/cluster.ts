// Issue 26: calls through Kamailio (deploy/kamailio) with one node and with two, side by side
// in one run, every engine real (test/cluster/cluster.ts: PostgreSQL, Kamailio, per node one
// Asterisk 20.17.0 and one core). Prints figures; asserts nothing.
//
// Per setup:
// - rates: BENCH_CLUSTER_CALLS callers (default 20) offered at each rate of BENCH_CLUSTER_RATES
//   calls/s (default 2,4,8); each caller hears the greeting and the beep, says a few words and
//   hangs up (a short voicemail). Per rate: answered, INVITE → 200 OK p50/p95 (SIPp's clock).
// - the knee: bursts of BENCH_CLUSTER_BURSTS simultaneous voicemail callers (default
//   10,20,40,80,120,160,200,240,280,320,400: one node alone took bursts of 200 cleanly in
//   bench/pbx-real-knee.ts) until the first late (INVITE → 200 OK over LATE_MS) or lost (not
//   answered, or no greeting heard) call. Each Asterisk gets BENCH_CLUSTER_RTP_PORTS ports
//   (default 1600, so its maxcalls, a quarter of them, is past the ladder: the knee measured
//   is the engines', not the shipped range's 50 calls).
// Run: npx tsx bench/cluster.ts
import { waitUntil } from '../test/helpers/wait.js';
import { speech } from '../test/pbx-real/audio.js';
import { heardGreetingAndBeep } from '../test/pbx-real/harness.js';
import { placeCalls, type CallSpec } from '../test/pbx-real/sipp.js';
import { startCluster, type Cluster } from '../test/cluster/cluster.js';
import { machine, percentile, report } from './lib/report.js';

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map(Number);
const RATES = list('BENCH_CLUSTER_RATES', '2,4,8');
const BURSTS = list('BENCH_CLUSTER_BURSTS', '10,20,40,80,120,160,200,240,280,320,400');
const CALLS = Number(process.env.BENCH_CLUSTER_CALLS ?? 20);
const RTP_PORTS = Number(process.env.BENCH_CLUSTER_RTP_PORTS ?? 1600);
/** An answer later than this is late: a caller hears ringing for seconds, a carrier may give up. */
const LATE_MS = 3000;

interface Step {
  label: string;
  offered: number;
  answered: number;
  greeted: number;
  p50: number;
  p95: number;
  perNode: string;
}

let seq = 0;
const words = speech('Hello, please call me back about the quote.');

/** `specs` placed through Kamailio (at `rate` calls/s, or all at once); each caller leaves a short message. */
async function run(c: Cluster, label: string, count: number, rate?: number): Promise<Step> {
  const biz = await c.business({ businessName: `Bench ${++seq}` });
  const specs: CallSpec[] = Array.from({ length: count }, (_, i) => ({ did: biz.did, from: `+4477009${String(seq % 10)}${String(i).padStart(4, '0')}` }));
  const batch = await placeCalls(c.kamailio.port, specs, rate ? { ratePerSecond: rate } : {});
  let greeted = 0;
  await Promise.all(
    batch.calls.map(async (call) => {
      try {
        await heardGreetingAndBeep(call, 700, 90_000);
        greeted++;
        await call.media.say(words);
        await call.hangUp();
      } catch {
        // Not greeted in time: counted as lost below; SIPp is stopped at the end.
      }
    }),
  );
  if (greeted < count) batch.kill();
  const result = await batch.done;
  const times = result.signalling.filter((s) => s.final === 200).map((s) => s.inviteToFinalMs ?? NaN);
  // Rows are written as calls end; count them by node once every answered call has one.
  const answered = result.signalling.filter((s) => s.final === 200).length;
  const rows = await waitUntil(async () => {
    const r = (await c.rows()).filter((x) => x.toNumber === biz.did);
    if (r.length < answered || r.some((x) => !x.endedAt)) throw new Error('rows not final yet');
    return r;
  }, 120_000, 500).catch(() => []);
  const byNode = new Map<string, number>();
  for (const r of rows) byNode.set(r.node, (byNode.get(r.node) ?? 0) + 1);
  return {
    label,
    offered: count,
    answered,
    greeted,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    perNode: [...byNode].map(([n, k]) => `${n} ${k}`).join(', '),
  };
}

const results = new Map<number, Step[]>();
const knees = new Map<number, string>();
for (const nodes of [1, 2]) {
  const c = await startCluster({ nodes, rtpPorts: RTP_PORTS });
  const steps: Step[] = [];
  try {
    for (const rate of RATES) steps.push(await run(c, `${CALLS} at ${rate}/s`, CALLS, rate));
    knees.set(nodes, `none up to ${BURSTS.at(-1)}`);
    for (const burst of BURSTS) {
      const step = await run(c, `${burst} at once`, burst);
      steps.push(step);
      if (step.answered < burst || step.greeted < burst || step.p95 > LATE_MS) {
        knees.set(nodes, `${burst} at once (${burst - step.greeted} lost, p95 ${step.p95.toFixed(0)} ms)`);
        break;
      }
    }
  } finally {
    await c.close();
  }
  results.set(nodes, steps);
}

console.log(`\n${machine()}\nvoicemail calls through Kamailio; INVITE → 200 OK on SIPp's clock; ms`);
console.log(`${'step'.padEnd(16)} ${'1 node: answered'.padStart(17)} ${'p50'.padStart(6)} ${'p95'.padStart(6)}   ${'2 nodes: answered'.padStart(18)} ${'p50'.padStart(6)} ${'p95'.padStart(6)}  per node`);
const labels = [...new Set([...results.values()].flat().map((s) => s.label))];
for (const label of labels) {
  const one = results.get(1)!.find((s) => s.label === label);
  const two = results.get(2)!.find((s) => s.label === label);
  const cell = (s: Step | undefined) => (s ? `${`${s.greeted}/${s.offered}`.padStart(17)} ${s.p50.toFixed(0).padStart(6)} ${s.p95.toFixed(0).padStart(6)}` : `${'-'.padStart(17)} ${''.padStart(6)} ${''.padStart(6)}`);
  console.log(`${label.padEnd(16)} ${cell(one)}   ${cell(two).padStart(32)}  ${two?.perNode ?? ''}`);
}
for (const nodes of [1, 2]) {
  console.log(`knee, ${nodes} node${nodes > 1 ? 's' : ''}: ${knees.get(nodes)}`);
  report({ bench: 'cluster', measure: `knee through Kamailio, ${nodes} node(s) (first late > ${LATE_MS} ms or lost call)`, value: knees.get(nodes)! });
  for (const s of results.get(nodes)!.filter((x) => x.label.includes('/s'))) {
    report({ bench: 'cluster', measure: `INVITE → 200 OK p95 through Kamailio, ${nodes} node(s), ${s.label}`, value: `${s.p95.toFixed(0)} ms (${s.greeted}/${s.offered} greeted)` });
  }
}
process.exit(0);
