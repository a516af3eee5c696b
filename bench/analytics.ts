// Prints p50/p95 of the analytics computation for one business with 100,000 calls in a
// database of 1,000,000 (DESIGN.md performance budget: p95 under 50 ms).
// Run: npx tsx bench/analytics.ts [callsForOwner] [callsInDatabase]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnalyticsPeriod } from '../contract/api.js';
import { computeAnalytics } from '../core/analytics/queries.js';
import { openDatabase } from '../core/db/client.js';
import { report } from './lib/report.js';

const OWNER_CALLS = Number(process.argv[2] ?? 100_000);
const ALL_CALLS = Number(process.argv[3] ?? 1_000_000);
const BUSINESSES = 10;
const RUNS = 200;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-analytics-'));
const handle = openDatabase(path.join(dir, 'bench.db'));
const { sqlite, db } = handle;
const now = Date.parse('2026-10-31T12:00:00Z');
const span = 2 * 365 * 86_400_000; // two years of calls, so two clock changes each way

const addUser = sqlite.prepare(`insert into users (email, password_hash, account_status) values (?, 'x', 'active') returning id`);
const userIds = Array.from({ length: BUSINESSES }, (_, i) => (addUser.get(`b${i}@example.co.uk`) as { id: number }).id);
const addCall = sqlite.prepare(
  `insert into calls (user_id, from_number, to_number, status, duration, created_at, transcription_status, notification_sent, notification_error, urgency)
   values (?, '+447700900123', '+447700900001', ?, ?, ?, ?, ?, ?, ?)`,
);
const statuses = ['missed', 'answered', 'voicemail'] as const;
const urgencies = [null, 'normal', 'normal', 'urgent', 'low'] as const;
const started = performance.now();
sqlite.transaction(() => {
  for (let i = 0; i < ALL_CALLS; i++) {
    // The first business gets OWNER_CALLS rows; the rest share the remainder.
    const user = i < OWNER_CALLS ? userIds[0]! : userIds[1 + (i % (BUSINESSES - 1))]!;
    const status = statuses[i % 3]!;
    addCall.run(user, status, status === 'missed' ? 0 : 20 + (i % 200), now - Math.floor(Math.random() * span), status === 'missed' ? 'none' : i % 10 ? 'done' : 'failed', i % 7 ? 1 : 0, i % 7 ? null : 'x', status === 'missed' ? null : urgencies[i % 5]!);
  }
})();
sqlite.pragma('optimize');
console.log(`seeded ${ALL_CALLS.toLocaleString('en-GB')} calls (${OWNER_CALLS.toLocaleString('en-GB')} for one business) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// The urgency breakdown's longest stretch of days (30 days of call_stats rows); 'all' reads the hour rows already read.
const period = (process.env.ANALYTICS_PERIOD ?? 'all') as AnalyticsPeriod;
const times: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < RUNS + 10; i++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const a = await computeAnalytics(db, userIds[0]!, new Date(now), i % 2 ? period : '30d');
  const c = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  // The first runs warm the page cache and statement compiler. CPU time is printed too:
  // on a shared 2-core box wall time mostly measures the other processes.
  if (i >= 10) times.push(ms), cpu.push((c.user + c.system) / 1000);
  if (i === 0 && a.totalCalls !== OWNER_CALLS) throw new Error(`expected ${OWNER_CALLS} calls, got ${a.totalCalls}`);
}
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(1);
console.log(`GET /api/analytics computation, ${RUNS} runs alternating ?period=30d and ?period=${period} (budget: p95 < 50 ms)`);
console.log(`  wall: p50 ${pct(times, 50)} ms, p95 ${pct(times, 95)} ms`);
console.log(`  cpu:  p50 ${pct(cpu, 50)} ms, p95 ${pct(cpu, 95)} ms   (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`);
report({ bench: 'analytics', measure: 'analytics computation in process, wall p50 / p95 (cpu p95)', value: `${pct(times, 50)} / ${pct(times, 95)} ms (${pct(cpu, 95)} ms)`, budget: 'p95 < 50 ms' });

// What the counters cost each write: a call inserted on its own (its own transaction, as the
// PBX writes it), with the counter triggers (scripts/db-schema/counter-triggers.ts), then without them.
function insertCost(): { p50: string; p95: string } {
  const each: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now();
    addCall.run(userIds[2]!, 'answered', 30, now - Math.floor(Math.random() * span), 'done', 1, null, 'normal');
    each.push(performance.now() - t0);
  }
  const at = (q: number) => [...each].sort((x, y) => x - y)[Math.floor((q / 100) * each.length)]!.toFixed(3);
  return { p50: at(50), p95: at(95) };
}
const withAll = insertCost();
const counterTriggers = ['calls_counters_insert', 'calls_counters_update', 'calls_counters_delete'];
const savedTriggers = sqlite.prepare(`select sql from sqlite_master where type = 'trigger' and name in (${counterTriggers.map(() => '?').join(', ')})`).pluck().all(...counterTriggers) as string[];
if (savedTriggers.length !== counterTriggers.length) throw new Error(`expected the counter triggers ${counterTriggers.join(', ')}: has their migration changed?`);
for (const name of counterTriggers) sqlite.exec(`drop trigger ${name}`);
const without = insertCost();
for (const sql of savedTriggers) sqlite.exec(sql);
console.log(`one call inserted: p50 ${withAll.p50} ms, p95 ${withAll.p95} ms with the counters; p50 ${without.p50} ms, p95 ${without.p95} ms without`);
report({ bench: 'analytics', measure: 'one call insert p50 / p95, with / without the analytics triggers', value: `${withAll.p50} / ${withAll.p95} ms; ${without.p50} / ${without.p95} ms` });
await handle.close();
fs.rmSync(dir, { recursive: true, force: true });
