// Issue 30: the knee of one node (a real Asterisk 20.17.0 with the project's configuration, the
// core as its own process), and what the node's limit does past it. Every call is a voicemail
// caller placed by SIPp (bench/lib/real-node.ts): it hears the greeting and the beep, speaks a
// message, and the box hangs up after the silence (about 20 s a call), then the post-call
// pipeline transcribes, summarises and texts the owner (engine doubles).
//
// 1. Steady arrivals: BENCH_KNEE_SECONDS (default 60) of calls at each rate of BENCH_KNEE_RATES
//    calls/s (default 1,2,3,4,5,6,8), one step after another, each waited out (rows
//    final, texts sent) before the next; stops after the first step with a late answer
//    (INVITE → 200 OK over 2 s, SIPp's clock) or a lost message. The knee is the last clean step.
// 2. One instant: bursts of BENCH_KNEE_BURSTS callers (default 25,50,75,100,150,200) until
//    the first late answer or lost message.
// 3. Twice the knee: a fresh node with its limit at the knee's calls in progress
//    (BENCH_KNEE_LIMIT=asterisk: PBX_MAX_CALLS, the default; core: ADMISSION_MAX_CALLS), offered
//    twice the knee's rate, then a burst of twice the limit: each caller past the limit must
//    get 503 within 100 ms, and every accepted caller's message must be stored and texted.
//    BENCH_KNEE_RATE (calls/s) with BENCH_KNEE_IN_PROGRESS (calls) skip 1 and 2 and run only
//    this at a knee already measured (e.g. the core's limit after a run with Asterisk's).
//
// Options for finding where the CPU goes (issue 47): BENCH_KNEE_CORE_NODE_OPTIONS is given to the
// core as NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a profile is written when
// each node stops); BENCH_KNEE_TASKPROCESSORS=1 prints Asterisk's busiest task processors after
// each step; BENCH_KNEE_PIN=1 pins the product (Asterisk and the core) to CPU 0 and the load
// generator (this process and the SIPp it starts) to CPU 1 with taskset, so the knee is the
// product's on one core of its own (other work on the machine is not pinned).
//
// Per step: calls placed / answered / refused, most in progress at once, INVITE → 200 OK,
// INVITE → 503, StasisStart → answer, messages stored / lost / texted, CPU per call for
// Asterisk, the core and the load generator (SIPp; this process, which carries every caller's
// audio and the ARI proxy), Asterisk's thread wake-ups per call and CPU per wake-up (its CPU is
// almost all wake-ups: docs/performance.md, issue 47's third round), and the load average
// before and after. Figures only: nothing here
// passes or fails. About 20–25 minutes; not part of `npm run bench`.
// Run: npm run bench:knee
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { findAsterisk } from '../test/pbx-real/asterisk-install.js';
import { callFigures, LATE_ANSWER_MS, PROMPT_REFUSAL_MS, spread, type CallFigures } from './lib/call-figures.js';
import { conditions, printAccounts, RealNode, strictRtpStory, type NodeOptions } from './lib/real-node.js';
import { machine, report } from './lib/report.js';

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').filter((v) => v.trim() !== '').map(Number);
const RATES = list('BENCH_KNEE_RATES', '1,2,3,4,5,6,8');
const BURSTS = list('BENCH_KNEE_BURSTS', '25,50,75,100,150,200');
const SECONDS = Number(process.env.BENCH_KNEE_SECONDS ?? 60);
const LIMIT: 'asterisk' | 'core' | 'setup' = process.env.BENCH_KNEE_LIMIT === 'core' ? 'core' : process.env.BENCH_KNEE_LIMIT === 'setup' ? 'setup' : 'asterisk';
/** BENCH_KNEE_LIMIT=setup: the core's admission by arrival rate at the knee's rate, answers judged late past this (issue 47). */
const SETUP_LATE_MS = process.env.BENCH_KNEE_LATE_ANSWER_MS ?? '1000';
/** Businesses the calls are spread over (a business may take several calls at once). */
const BUSINESSES = 100;
const CORE_NODE_OPTIONS = process.env.BENCH_KNEE_CORE_NODE_OPTIONS;
const TASKPROCESSORS = process.env.BENCH_KNEE_TASKPROCESSORS === '1';
const PIN = process.env.BENCH_KNEE_PIN === '1';

const found = findAsterisk();
if (!found.ok) {
  console.log(found.why);
  process.exit(0);
}

interface Step {
  label: string;
  /** Calls/s for a steady step. */
  rate?: number;
  loadBefore: number;
  loadAfter: number;
  f: CallFigures;
}

const load1 = () => os.loadavg()[0]!;
/** What else is using the two cores: the busiest processes, as `ps` sees them. */
const busiest = () => execFileSync('ps', ['-eo', 'pcpu,etime,args', '--sort=-pcpu'], { encoding: 'utf8' }).split('\n').slice(0, 9).map((l) => l.slice(0, 140)).join('\n');

let tag = 10000;
async function step(node: RealNode, label: string, calls: number, rate?: number): Promise<Step> {
  const loadBefore = load1();
  const tapFrom = node.tap.log.length;
  const dids = Array.from({ length: calls }, (_, i) => node.dids[i % node.dids.length]!);
  const result = await node.call(dids, rate ? { ratePerSecond: rate } : {}, tag);
  tag += 1000;
  const accounts = await node.account(result);
  const s: Step = { label, rate, loadBefore, loadAfter: load1(), f: callFigures(result, accounts, node.tap.log.slice(tapFrom)) };
  console.log(line(s));
  if (TASKPROCESSORS) console.log(busiestTaskProcessors(node));
  printAccounts(accounts.filter((a) => a.verdict !== 'refused (503)'), (l) => console.log(`    ${l}`));
  if (s.f.lost > 0 || s.f.noGreeting > 0) console.log(`    the core's log: ${node.saveCoreLog(`knee-${label.replace(/\W+/g, '-')}`)}`);
  // A caller who heard no greeting (or no beep after it) is told as a lost message is: was it played?
  for (const a of accounts.filter((x) => x.verdict === 'LOST MESSAGE' || x.verdict === 'no greeting heard').slice(0, 3)) console.log(`    ${a.from}, at the ARI proxy:\n${node.story(a).map((l) => `      ${l}`).join('\n')}`);
  // Where a silent caller's greeting went: Asterisk's strict-RTP learning for the caller's port.
  for (const a of accounts.filter((x) => x.verdict === 'no greeting heard').slice(0, 10)) console.log(`    ${a.from}, Asterisk's RTP for 127.0.0.1:${a.wire.localPort}:\n${strictRtpStory(node.asterisk.rtpLearningLog(), a.wire.localPort).map((l) => `      ${l}`).join('\n')}`);
  return s;
}

/**
 * Asterisk's task processors with the most work processed since start, and their highest
 * queue (`core show taskprocessors`: Processed, In Queue, Max Depth, Low/High water).
 */
function busiestTaskProcessors(node: RealNode): string {
  const rows = node.asterisk
    .cli('core show taskprocessors')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 6 && /^\d+$/.test(f[1]!));
  // Per-channel processors (one per call) are summed under their kind, so the table says what costs.
  const byKind = new Map<string, { processed: number; maxDepth: number }>();
  for (const f of rows) {
    const kind = f[0]!.replace(/[-/][0-9a-f]{8}(-[0-9a-f]+)*$/i, '-*').replace(/\d{6,}/g, '*');
    const k = byKind.get(kind) ?? { processed: 0, maxDepth: 0 };
    k.processed += Number(f[1]);
    k.maxDepth = Math.max(k.maxDepth, Number(f[3]));
    byKind.set(kind, k);
  }
  const top = [...byKind].sort((a, b) => b[1].processed - a[1].processed).slice(0, 10);
  return `    Asterisk task processors (since start), busiest: ${top.map(([k, v]) => `${k} ${v.processed} (max queue ${v.maxDepth})`).join('; ')}`;
}

/** Pins the product to CPU 0 and this process (and the SIPp it starts) to CPU 1 (BENCH_KNEE_PIN). */
function pin(node: RealNode): void {
  if (!PIN) return;
  for (const pid of [node.asterisk.pid, node.core.child.pid]) execFileSync('taskset', ['-a', '-p', '-c', '0', String(pid)]);
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
}

/** A step the node served: every call answered within 2 s, every caller greeted, no message lost. */
const clean = (s: Step) => s.f.late === 0 && s.f.lost === 0 && s.f.noGreeting === 0 && s.f.neverAnswered === 0;

const HEADER = '| step | calls: placed / answered / 503 | most in progress | call length | INVITE → 200 OK p50 / p95 / max | over 2 s | INVITE → 503 p50 / p95 / max | StasisStart → answer p50 / p95 / max | stored / lost / texted once | CPU ms per call: Asterisk / core / SIPp / callers’ audio + proxy | Asterisk’s thread wake-ups per call / CPU µs each | callers’ process longest stall | load before → after |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|';
function line({ label, loadBefore, loadAfter, f }: Step): string {
  const cpu = f.cpuPerCallMs;
  return `| ${label} | ${f.calls} / ${f.answered} / ${f.refused} | ${f.peakInProgress} | ${f.meanCallSeconds.toFixed(1)} s | ${spread(f.inviteTo200)} ms | ${f.late} | ${spread(f.inviteTo503)}${f.inviteTo503.length ? ' ms' : ''} | ${spread(f.answerMs, 1)} ms | ${f.stored} / ${f.lost}${f.noGreeting ? ` (+${f.noGreeting} no greeting)` : ''} / ${f.textedOnce} | ${cpu.asterisk.toFixed(0)} / ${cpu.core.toFixed(0)} / ${cpu.sipp.toFixed(0)} / ${cpu.bench.toFixed(0)} | ${f.asteriskWakeUpsPerCall.toFixed(0)} / ${f.asteriskUsPerWakeUp.toFixed(1)} | ${f.callersLongestStallMs.toFixed(0)} ms | ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} |`;
}

const startedAt = new Date();
console.log(`pbx-real-knee, ${startedAt.toISOString()}: ${machine()}; ${conditions()}\nbusiest processes before:\n${busiest()}\n`);
/** Asterisk's RTP ports (BENCH_KNEE_RTP_PORTS, default 1200): a quarter of them is the node's calls in progress before 503. */
const RTP_PORTS = Number(process.env.BENCH_KNEE_RTP_PORTS ?? 1200);
const nodeOptions: NodeOptions = { dids: BUSINESSES, rtpPorts: RTP_PORTS, ...(CORE_NODE_OPTIONS ? { coreEnv: { NODE_OPTIONS: CORE_NODE_OPTIONS } } : {}) };
const steps: Step[] = [];
let knee: Step | undefined;
let firstBad: Step | undefined;
let burstKnee: Step | undefined;
let burstBad: Step | undefined;

/** Raises the steady rate, then the burst, each until its first step that is not clean. */
async function searchKnee(node: RealNode): Promise<void> {
  console.log(`steady arrivals, ${SECONDS} s per step\n${HEADER}`);
  for (const rate of RATES) {
    const s = await step(node, `${rate}/s for ${SECONDS} s`, Math.round(rate * SECONDS), rate);
    steps.push(s);
    if (!clean(s)) {
      firstBad = s;
      break;
    }
    knee = s;
  }
  console.log(`\none instant\n${HEADER}`);
  for (const burst of BURSTS) {
    const s = await step(node, `${burst} at once`, burst);
    steps.push(s);
    if (!clean(s)) {
      burstBad = s;
      break;
    }
    burstKnee = s;
  }
}

const known = process.env.BENCH_KNEE_RATE ? { rate: Number(process.env.BENCH_KNEE_RATE), inProgress: Number(process.env.BENCH_KNEE_IN_PROGRESS) } : undefined;
if (!known) {
  const node = await RealNode.start(found.root, nodeOptions);
  pin(node);
  try {
    await searchKnee(node);
  } finally {
    await node.stop();
  }
}

const kneeText = (good: Step | undefined, bad: Step | undefined, what: string) =>
  !good ? `below the first ${what} tried (${bad?.label})` : `${good.label} (${good.f.peakInProgress} in progress)${bad ? `; ${bad.label} was not clean (${bad.f.late} answers over ${LATE_ANSWER_MS} ms, ${bad.f.lost} lost)` : ', the highest tried'}`;
if (!known) {
  console.log(`\nknee, steady arrivals: ${kneeText(knee, firstBad, 'rate')}`);
  console.log(`knee, one instant: ${kneeText(burstKnee, burstBad, 'burst')}`);
  report({ bench: 'pbx-real-knee', measure: `knee, steady arrivals (last step with no answer over ${LATE_ANSWER_MS} ms and no message lost)`, value: kneeText(knee, firstBad, 'rate') });
  report({ bench: 'pbx-real-knee', measure: 'knee, one instant', value: kneeText(burstKnee, burstBad, 'burst') });
}

// Twice the knee, with the node's limit at the knee (BENCH_KNEE_OVER=0 leaves it out: a profiling run).
if (process.env.BENCH_KNEE_OVER === '0') {
  console.log(`\n${HEADER}\n${steps.map(line).join('\n')}`);
  process.exit(0);
}
const base = known ?? { rate: (knee ?? firstBad!).rate!, inProgress: (knee ?? firstBad!).f.peakInProgress };
const limit = Math.max(1, base.inProgress);
const overRate = 2 * base.rate;
const limitEnv =
  LIMIT === 'asterisk' ? { asteriskEnv: { PBX_MAX_CALLS: String(limit) } }
  : LIMIT === 'core' ? { coreEnv: { ...nodeOptions.coreEnv, ADMISSION_MAX_CALLS: String(limit) } }
  : { coreEnv: { ...nodeOptions.coreEnv, ADMISSION_MAX_SETUPS_PER_SECOND: String(base.rate), ADMISSION_LATE_ANSWER_MS: SETUP_LATE_MS } };
const limitName =
  LIMIT === 'asterisk' ? `PBX_MAX_CALLS=${limit}`
  : LIMIT === 'core' ? `ADMISSION_MAX_CALLS=${limit}`
  : `ADMISSION_MAX_SETUPS_PER_SECOND=${base.rate}, ADMISSION_LATE_ANSWER_MS=${SETUP_LATE_MS}`;
console.log(`\ntwice the knee with ${limitName}\n${HEADER}`);
const over: Step[] = [];
const limited = await RealNode.start(found.root, { ...nodeOptions, ...limitEnv });
pin(limited);
try {
  over.push(await step(limited, `${overRate}/s for ${SECONDS} s, ${limitName}`, Math.round(overRate * SECONDS), overRate));
  over.push(await step(limited, `${2 * limit} at once, ${limitName}`, 2 * limit));
} finally {
  await limited.stop();
}
for (const s of over) {
  const slow = s.f.inviteTo503.filter((ms) => ms > PROMPT_REFUSAL_MS).length;
  report({ bench: 'pbx-real-knee', measure: `${s.label}: answered / refused (503) / neither`, value: `${s.f.answered} / ${s.f.refused} / ${s.f.neverAnswered}` });
  report({ bench: 'pbx-real-knee', measure: `${s.label}: INVITE → 503 p50 / p95 / max`, value: `${spread(s.f.inviteTo503)} ms (${slow} over ${PROMPT_REFUSAL_MS} ms)`, budget: `< ${PROMPT_REFUSAL_MS} ms` });
  report({ bench: 'pbx-real-knee', measure: `${s.label}: accepted messages stored / lost / texted once; answers over ${LATE_ANSWER_MS} ms`, value: `${s.f.stored} / ${s.f.lost} / ${s.f.textedOnce}; ${s.f.late}`, budget: 'lost = 0' });
}

console.log(`\n${startedAt.toISOString()} → ${new Date().toISOString()}; ${machine()}\nbusiest processes after:\n${busiest()}\n`);
console.log(`${HEADER}\n${[...steps, ...over].map(line).join('\n')}`);
process.exit(0);
