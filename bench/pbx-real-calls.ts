// N voicemail calls placed at the same instant by SIPp on a real Asterisk 20.17.0 (the
// project's configuration), each caller speaking a message, answered by the real core running
// as its own process (root/main.ts), through a logging ARI proxy. Every call is accounted for:
// what the caller experienced (SIP answer and after how long, greeting heard, spoke) and how
// the appliance filed it (row status, seconds of recording stored, post-call job); a caller
// who spoke and has no stored message is named a LOST MESSAGE. Prints figures beside the
// conditions they were taken under: nothing here passes or fails.
// Run: npx tsx bench/pbx-real-calls.ts [calls=100]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { findAsterisk } from '../test/pbx-real/asterisk-install.js';
import { conditions, printAccounts, RealNode } from './lib/real-node.js';
import { callFigures } from './lib/call-figures.js';
import { percentile, report, type BenchRow } from './lib/report.js';

const N = Number(process.argv[2] ?? 100);
const found = findAsterisk();
if (!found.ok) {
  console.log(found.why);
  process.exit(0);
}

console.log(`pbx-real-calls: ${N} SIP calls at one instant; before: ${conditions()}`);
const node = await RealNode.start(found.root, { dids: N });
const tapFrom = node.tap.log.length;
const started = performance.now();
const result = await node.call(node.dids);
const allEnded = performance.now() - started;
const during = conditions();
const accounts = await node.account(result);
const f = callFigures(result, accounts, node.tap.log.slice(tapFrom));
const pair = (ms: number[], digits = 0) => `${percentile(ms, 50).toFixed(digits)} / ${percentile(ms, 95).toFixed(digits)}`;
const perCall = f.cpuPerCallMs;
const rows: BenchRow[] = [
  { bench: 'pbx-real', measure: `INVITE → 200 OK p50 / p95 (${N} SIP calls at once)`, value: `${pair(f.inviteTo200)} ms`, budget: 'p95 < 2000 ms' },
  { bench: 'pbx-real', measure: 'StasisStart → answer request p50 / p95 (core’s part, at the ARI proxy)', value: `${pair(f.answerMs, 1)} ms`, budget: 'p95 < 20 ms' },
  { bench: 'pbx-real', measure: 'messages stored / lost / calls (stored and texted once)', value: `${f.stored} / ${f.lost} / ${N} (${f.textedOnce})`, budget: 'lost = 0' },
  { bench: 'pbx-real', measure: 'CPU per call: Asterisk / core / load generator (SIPp; callers’ audio and ARI proxy)', value: `${perCall.asterisk.toFixed(0)} / ${perCall.core.toFixed(0)} / ${perCall.sipp.toFixed(0)}; ${perCall.bench.toFixed(0)} ms` },
  { bench: 'pbx-real', measure: 'burst wall time (first INVITE → last BYE)', value: `${(allEnded / 1000).toFixed(1)} s` },
  { bench: 'pbx-real', measure: 'conditions at the end of the burst', value: during },
];
for (const r of rows) report(r);
printAccounts(accounts);
if (f.lost > 0) console.log(`the core's log: ${node.saveCoreLog('pbx-real-calls')}`);
for (const a of accounts.filter((x) => x.verdict === 'LOST MESSAGE').slice(0, 3)) console.log(`${a.from}, at the ARI proxy:\n${node.story(a).map((l) => `  ${l}`).join('\n')}`);
await node.stop();

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
    console.log(`| messages stored / lost / calls | ${rows[2]!.value} | ${sim(/rows|recordings/i)} |`);
    console.log(`| INVITE → 200 OK p50 / p95 | ${rows[0]!.value} | (no SIP on the simulator) |`);
    console.log(`| CPU per call: Asterisk / core / SIPp | ${rows[3]!.value} | (simulator: core heap per active call ${sim(/heap/i)}) |`);
    resolve();
  });
});
process.exit(0);
