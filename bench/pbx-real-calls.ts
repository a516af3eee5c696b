// 100 concurrent voicemail calls on a real Asterisk 20.17.0 (the project's configuration),
// placed by SIPp with spoken messages, answered by the real core running as its own process
// (core/main.ts), through a logging ARI proxy. Prints figures, beside the ARI simulator's
// from the same run (bench/calls-100.ts): nothing here passes or fails.
//   INVITE → 200 OK (SIPp's response time), StasisStart → answer request (at the proxy, the
//   core's part), rows final / recordings stored / post-call jobs done, CPU seconds per call
//   for Asterisk and for the core.
// Run: npx tsx bench/pbx-real-calls.ts [calls=100]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../core/db/client.js';
import { calls, jobs, phoneNumbers, users } from '../core/db/schema.js';
import { postCallKey } from '../core/post-call/post-call.js';
import { startOllamaDouble } from '../test/doubles/ollama/server.js';
import { startWhisperDouble } from '../test/doubles/whisper/server.js';
import { startCoreProcess } from '../test/helpers/core-process.js';
import { waitUntil } from '../test/helpers/wait.js';
import { startAriTap } from '../test/pbx-real/ari-tap.js';
import { findAsterisk } from '../test/pbx-real/asterisk-install.js';
import { AsteriskInstance } from '../test/pbx-real/asterisk-instance.js';
import { speech } from '../test/pbx-real/audio.js';
import { heardGreetingAndBeep } from '../test/pbx-real/harness.js';
import { placeCalls } from '../test/pbx-real/sipp.js';
import { machine, percentile, report, type BenchRow } from './lib/report.js';

const N = Number(process.argv[2] ?? 100);
const found = findAsterisk();
if (!found.ok) {
  console.log(found.why);
  process.exit(0);
}

/** utime + stime of a process, in seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
}

console.log(`pbx-real-calls: ${N} concurrent SIP calls on ${machine()}`);
const asterisk = await AsteriskInstance.start({ root: found.root, rtpPorts: Math.max(200, N * 4) });
const tap = await startAriTap(asterisk.ari.url);
const whisper = await startWhisperDouble();
whisper.defaultTranscript = 'Please call me back about the leaking tap.';
const ollama = await startOllamaDouble();
ollama.replier = () => 'A caller asked to be called back about a leaking tap.';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-real-'));
asterisk.mountPrompts(path.join(dataDir, 'prompts'));
const db = openDatabase(path.join(dataDir, 'appliance.db'));
const dids: string[] = [];
for (let i = 0; i < N; i++) {
  const did = `+4477009${String(10000 + i).padStart(5, '0')}`;
  const u = db.db.insert(users).values({ email: `b${i}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', businessName: 'Hale Plumbing' }).returning().get();
  db.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: u.id }).run();
  dids.push(did);
}
const core = await startCoreProcess(dataDir, {
  ARI_URL: tap.url,
  ARI_USERNAME: asterisk.ari.username,
  ARI_PASSWORD: asterisk.ari.password,
  ARI_APP: asterisk.ari.app,
  WHISPER_URL: whisper.url,
  OLLAMA_URL: ollama.url,
  LOG_LEVEL: 'info', // the "listening" line startCoreProcess waits for is at info
});
// The greeting is made once before the burst (as it is after the owner saves it), as on a box in use.
const warm = await placeCalls(asterisk.sipPort, [{ did: dids[0]! }]);
await heardGreetingAndBeep(warm.calls[0]!);
await warm.calls[0]!.hangUp();
await warm.done;
const tapFrom = tap.log.length;

const cpu0 = { asterisk: cpuSeconds(asterisk.pid!), core: cpuSeconds(core.child.pid!) };
const words = speech('Hello, please call me back about the leaking tap in the kitchen. Thanks.');
const started = performance.now();
const batch = await placeCalls(asterisk.sipPort, dids.map((did, i) => ({ did, from: `+4477009${String(20000 + i)}` })));
await Promise.all(
  batch.calls.map(async (c) => {
    await heardGreetingAndBeep(c, 700, 300_000);
    await c.media.say(words);
  }),
);
const sipp = await batch.done;
const allEnded = performance.now() - started;
const finalRows = await waitUntil(() => {
  const rows = db.db.select().from(calls).all().filter((r) => r.endedAt && r.status === 'voicemail');
  if (rows.length < N + 0) throw new Error('rows not final yet');
  return rows;
}, 120_000, 500).catch(() => db.db.select().from(calls).all().filter((r) => r.endedAt && r.status === 'voicemail'));
const cpu1 = { asterisk: cpuSeconds(asterisk.pid!), core: cpuSeconds(core.child.pid!) };
// The burst's calls only (the warm-up call has a row and a job too).
const burstKeys = new Set(finalRows.map((r) => postCallKey(r.id)));
const burstJobsDone = () => db.db.select().from(jobs).all().filter((j) => j.status === 'done' && burstKeys.has(j.key)).length;
const jobsDone = await waitUntil(() => {
  const done = burstJobsDone();
  if (done < N) throw new Error('jobs running');
  return done;
}, 300_000, 1000).catch(() => burstJobsDone());

const log = tap.log.slice(tapFrom);
const answerMs: number[] = [];
for (const e of log) {
  if (e.kind !== 'event' || e.what !== 'StasisStart' || !e.channel) continue;
  const answer = log.find((r) => r.kind === 'request' && r.what === 'POST /channels/{id}/answer' && r.channel === e.channel);
  if (answer) answerMs.push(answer.at - e.at);
}
const stored = fs.readdirSync(path.join(dataDir, 'recordings')).filter((f) => f.endsWith('.wav')).length;
const rows: BenchRow[] = [
  { bench: 'pbx-real', measure: `INVITE → 200 OK p50 / p95 (${sipp.rttMs.length} SIP calls at once)`, value: `${percentile(sipp.rttMs, 50).toFixed(1)} / ${percentile(sipp.rttMs, 95).toFixed(1)} ms`, budget: 'p95 < 50 ms' },
  { bench: 'pbx-real', measure: 'StasisStart → answer request p50 / p95 (core’s part, at the ARI proxy)', value: `${percentile(answerMs, 50).toFixed(1)} / ${percentile(answerMs, 95).toFixed(1)} ms`, budget: 'p95 < 20 ms' },
  { bench: 'pbx-real', measure: 'rows final as voicemail / recordings stored / post-call jobs done', value: `${finalRows.length} / ${stored} / ${jobsDone} of ${N}` },
  { bench: 'pbx-real', measure: 'CPU per call: Asterisk / core', value: `${(((cpu1.asterisk - cpu0.asterisk) / N) * 1000).toFixed(0)} / ${(((cpu1.core - cpu0.core) / N) * 1000).toFixed(0)} ms` },
  { bench: 'pbx-real', measure: 'burst wall time (first INVITE → last BYE)', value: `${(allEnded / 1000).toFixed(1)} s` },
];
for (const r of rows) report(r);

core.child.kill('SIGTERM');
await core.exited;
db.close();
await tap.close();
await asterisk.destroy();
await whisper.close();
await ollama.close();
fs.rmSync(dataDir, { recursive: true, force: true });

// The simulator's figures from the same run, for comparison.
console.log(`\nARI simulator, ${N} calls at once (bench/calls-100.ts):`);
await new Promise<void>((resolve) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/calls-100.ts', String(N)], { cwd: path.resolve(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  child.stdout.on('data', (d: Buffer) => (buf += d));
  child.on('exit', () => {
    const simRows = buf.split('\n').filter((l) => l.startsWith('BENCH_RESULT ')).map((l) => JSON.parse(l.slice(13)) as BenchRow);
    console.log('\n| measure | real Asterisk 20.17.0 | ARI simulator |\n|---|---|---|');
    const sim = (re: RegExp) => simRows.find((r) => re.test(r.measure))?.value ?? '-';
    console.log(`| StasisStart → answer p50 / p95 | ${rows[1]!.value} | ${sim(/answer/i)} |`);
    console.log(`| rows / recordings / jobs | ${rows[2]!.value} | ${sim(/rows|recordings/i)} |`);
    console.log(`| INVITE → 200 OK p50 / p95 | ${rows[0]!.value} | (no SIP on the simulator) |`);
    console.log(`| CPU per call: Asterisk / core | ${rows[3]!.value} | (simulator: core heap per active call ${sim(/heap/i)}) |`);
    resolve();
  });
});
process.exit(0);
