// `npm run bench`: every benchmark in turn, each in its own process, then one table.
// Figures only: nothing here passes or fails. Scale the data with each bench's BENCH_* variables.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { machine, type BenchRow } from './lib/report.js';

const root = path.resolve(import.meta.dirname, '..');
const benches: (string | [string, ...string[]])[] = [
  'bench/calls-100.ts', // 100 simultaneous calls on the ARI simulator (pbx), all at once
  ['bench/calls-100.ts', '100', '20'], // the same, arriving 20 ms apart
  'bench/agent-latency.ts', // agent turn latency and barge-in (pbx/flows/agent)
  'bench/agent-prompt-size.ts', // the agent's prompt in tokens with a 2,000-word knowledge base, every entry beside the turn's entries (issue 61)
  'bench/hardware-sim.ts', // the box on real hardware, simulated (issue 61): first audio, calls held and summary time per box and model size, computed from published engine rates
  'bench/agent-language.ts', // the same in Polish beside English: a caller answered in their own language (issue 42)
  'bench/pbx-real-calls.ts', // 100 SIPp calls on a real Asterisk 20.17.0, beside the simulator's figures
  'bench/pbx-real-agent.ts', // 20 agent calls on a real Asterisk: latency and barge-in at the caller
  'bench/push.ts', // push alerts (issue 54): queued on the durable queue → received and decrypted by the push-service double on loopback, one at a time and in a burst
  'bench/caller-texts.ts', // missed-call text-back: 50 SIPp callers hang up at once on a real Asterisk → text-back queued and sent
  'bench/screening.ts', // nuisance screening before answering: one lookup with 100,000 numbers on the box-wide list, SQLite and PostgreSQL
  'bench/booking.ts', // booking: three times offered with 2,000 calendar events (CalDAV on a real Radicale, and an iCal address), a booking's commit
  'bench/deposits.ts', // deposits (issue 59): a deposit service's booking (claim + pay link, Stripe double) beside a plain one's, and a paid webhook's POST → 200
  'bench/anyone-free-times.ts', // booking with a team: free times for "anyone" across 20 people with 2,000 events each, beside one person's
  'bench/website-crawl.ts', // learning from the website (issue 55): a 200-page site crawled and drafted (Ollama double), re-crawl, live agent turns with and without a crawl
  'bench/admission.ts', // the agent-mode admission decision at answer (pools' counters), admitted and turned away
  'bench/pbx-real-agent-load.ts', // agent latency at the caller against 1–16 calls on slot-limited engines, with and without admission (≈ 8 min)
  'bench/pbx-real-transfer.ts', // warm transfer on a real Asterisk: "put me through" → owner's phone ringing, key press → connected
  'bench/ring-team.ts', // ring the team first on a real Asterisk: the caller's INVITE → the staff phones ringing (issue 58)
  'bench/call-back-first-words.ts', // the agent's call-backs on a real Asterisk (issue 56): the dialler asked → the phone ringing, its answer → the opening heard, beside an inbound call's answer → greeting
  'bench/call-my-line.ts', // "Call my line" in Chromium on a real Asterisk: button pressed → greeting heard in the page, voicemail and agent mode
  'bench/listen.ts', // listen in (issue 54): Asterisk CPU per call with and without one listener, real Asterisk
  'bench/live.ts', // the Live page (issue 54): a turn committed → shown on the owner's SSE stream, one call and one browser, then 20 calls × 5 browsers
  'bench/http-load.ts', // call logs and analytics under concurrent load, 1M calls
  'bench/greeting-uploads.ts', // /healthz p50/p95 with and without six owners uploading 5 MB greeting recordings at once
  'bench/analytics.ts', // analytics computation alone
  'bench/signin.ts', // argon2id sign-in throughput
  'bench/compose-images.ts', // compose images: sizes and build times from the last `npm run test:compose`
  'bench/console-wire.ts', // console bytes on the wire (brotli/gzip vs raw) and login → first call card, in Chromium
  'bench/move-to-postgres.ts', // db:move-to-postgres of a 10k-call appliance into a throw-away PostgreSQL 15
  'bench/engines.ts', // call logs and analytics at 1M calls on SQLite and PostgreSQL side by side; job claims on PostgreSQL
  'bench/cluster.ts', // voicemail calls through Kamailio with one node and two: INVITE → 200 OK by rate, and the knee
];

const rows: BenchRow[] = [];

function runOne(command: string, args: string[]): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('BENCH_RESULT ')) rows.push(JSON.parse(line.slice(13)) as BenchRow);
        else process.stdout.write(`${line}\n`);
        const size = line.match(/landing JS gzipped: ([\d.]+) KB/);
        if (size) rows.push({ bench: 'console', measure: 'landing page JavaScript, gzipped', value: `${size[1]} KB`, budget: '< 250 KB' });
      }
    });
    child.on('exit', (code) => {
      if (code !== 0) rows.push({ bench: args.at(-1) ?? command, measure: 'run', value: `exited ${code}` });
      resolve();
    });
  });
}

for (const entry of benches) {
  const [file, ...args] = Array.isArray(entry) ? entry : [entry];
  if (!fs.existsSync(path.join(root, file))) {
    console.log(`\n(skipping ${file}: not present)`);
    continue;
  }
  console.log(`\n=== ${[file, ...args].join(' ')}`);
  await runOne(process.execPath, ['--import', 'tsx', file, ...args]);
}
console.log('\n=== console build (landing size)');
await runOne('npm', ['run', '--silent', 'build:console']);

console.log(`\nMachine: ${machine()}\n`);
console.log('| bench | measure | value | budget |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.bench} | ${r.measure} | ${r.value} | ${r.budget ?? ''} |`);
