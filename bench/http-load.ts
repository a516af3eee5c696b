// GET /api/call-logs and /api/analytics for a business with 100,000 calls in a database
// of 1,000,000, under concurrent load from a second process (DESIGN.md: p95 under 50 ms).
// Prints figures; asserts nothing. Scale with BENCH_OWN_CALLS / BENCH_ALL_CALLS; pick with
// BENCH_ROUTES (comma-separated), BENCH_CONCURRENCY (e.g. 1,4) and BENCH_SECONDS.
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createSession } from '../core/auth/sessions.js';
import { startTestServer } from '../test/helpers/server.js';
import { machine, percentile, report } from './lib/report.js';
import { sqliteOf } from '../core/db/client.js';

const OWN = Number(process.env.BENCH_OWN_CALLS ?? 100_000);
const ALL = Number(process.env.BENCH_ALL_CALLS ?? 1_000_000);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '1,4').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUTES = (process.env.BENCH_ROUTES ?? '/api/call-logs,/api/call-logs?limit=50,/api/analytics').split(',');
const run = promisify(execFile);

const server = await startTestServer();
const { db } = server.database;
const sqlite = sqliteOf(server.database);

const seeded = performance.now();
const addUser = sqlite.prepare(`insert into users (email, password_hash, account_status, business_name) values (?, 'x', 'active', ?)`);
const addCall = sqlite.prepare(
  `insert into calls (user_id, from_number, to_number, status, duration, created_at, ai_summary, transcription, recording_file, notification_sent, transcription_status)
   values (?, ?, '+447700900001', ?, ?, ?, ?, ?, ?, 1, ?)`,
);
const statuses = ['answered', 'missed', 'voicemail'] as const;
const twoYears = 2 * 365 * 864e5;
const now = Date.now();
let owner = 0;
sqlite.transaction(() => {
  owner = Number(addUser.run('owner@bench.example', 'Bench Owner').lastInsertRowid);
  const others = Array.from({ length: 99 }, (_, i) => Number(addUser.run(`o${i}@bench.example`, `Other ${i}`).lastInsertRowid));
  for (let i = 0; i < ALL; i++) {
    const own = Math.floor(((i + 1) * OWN) / ALL) > Math.floor((i * OWN) / ALL);
    const status = statuses[i % 3]!;
    addCall.run(
      own ? owner : others[i % 99]!,
      `+4477009${String(i % 100000).padStart(5, '0')}`,
      status,
      status === 'missed' ? 0 : 20 + (i % 180),
      now - twoYears + Math.floor((i / ALL) * twoYears),
      status === 'missed' ? null : 'Caller wants a boiler quote; call back tomorrow morning.',
      status === 'voicemail' ? 'Hi, it is Sam from Leeds about a boiler quote, please call me back.' : null,
      status === 'voicemail' ? `call-${i}.wav` : null,
      status === 'voicemail' ? 'done' : 'none',
    );
  }
})();
sqlite.pragma('optimize');
console.log(`seeded ${ALL.toLocaleString('en-GB')} calls (${OWN.toLocaleString('en-GB')} for one business) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

const cookie = `sid=${(await createSession(db, owner, new Date())).id}`;
const client = path.join(import.meta.dirname, 'lib', 'load-client.ts');

for (const route of ROUTES)
for (const CONCURRENCY of CONCURRENCIES) {
  await fetch(server.url + route, { headers: { cookie } }); // warm caches and prepared statements
  // The server runs in this process, so this process's CPU time during the load is the
  // server's: per request it does not depend on what else the shared machine is running,
  // unlike the wall-clock percentiles.
  const cpu0 = process.cpuUsage();
  const { stdout } = await run(process.execPath, ['--import', 'tsx', client, server.url + route, cookie, String(CONCURRENCY), String(SECONDS)], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const cpu = process.cpuUsage(cpu0);
  const { latencies, errors } = JSON.parse(stdout) as { latencies: number[]; errors: number };
  const rps = latencies.length / SECONDS;
  const cpuPerRequest = (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length + errors);
  console.log(
    `${route.padEnd(26)} ${CONCURRENCY} concurrent: ${latencies.length} requests (${rps.toFixed(0)}/s), errors ${errors}, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, server CPU ${cpuPerRequest.toFixed(2)} ms/request, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  report({ bench: 'http-load', measure: `GET ${route} p50 / p95 (${CONCURRENCY} concurrent)`, value: `${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 95).toFixed(1)} ms`, budget: 'p95 < 50 ms' });
}
console.log(machine());
await server.close();
