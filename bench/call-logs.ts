// GET /api/call-logs with 100,000 calls for one business and 900,000 for others
// (DESIGN.md budget: p95 under 50 ms). Prints figures; asserts nothing.
// Run: npx tsx bench/call-logs.ts   (BENCH_OWN_CALLS / BENCH_OTHER_CALLS scale it)
import { createSession } from '../core/auth/sessions.js';
import os from 'node:os';
import { encodeCallLogCursor } from '../core/calls/call-log-cursor.js';
import { listCallLogs } from '../core/calls/queries.js';
import { startTestServer } from '../test/helpers/server.js';
import { sqliteOf } from '../core/db/client.js';

const OWN = Number(process.env.BENCH_OWN_CALLS ?? 100_000);
const OTHERS = Number(process.env.BENCH_OTHER_CALLS ?? 900_000);
const OTHER_BUSINESSES = 99;
const RUNS = 200;
const WARMUP = 20;

const server = await startTestServer();
const { db } = server.database;
const sqlite = sqliteOf(server.database);

function seed() {
  const started = performance.now();
  const addUser = sqlite.prepare(
    `insert into users (email, password_hash, role, account_status, business_name) values (?, 'x', 'customer', 'active', ?)`,
  );
  const addCall = sqlite.prepare(
    `insert into calls (user_id, from_number, to_number, status, duration, created_at, ai_summary, transcription, recording_file, notification_sent)
     values (?, ?, '+447700900001', ?, ?, ?, ?, ?, ?, 1)`,
  );
  const statuses = ['answered', 'missed', 'voicemail'] as const;
  const summary = 'Caller asked for a quote for a new boiler and would like a call back tomorrow morning.';
  const transcript = 'Hi, this is Sam from Leeds, I was hoping to get a quote for replacing my boiler, it is about fifteen years old. Could you call me back tomorrow morning please? Thanks.';
  const twoYears = 2 * 365 * 24 * 3600 * 1000;
  const now = Date.now();
  let ownerId = 0;
  sqlite.transaction(() => {
    ownerId = Number(addUser.run('owner@bench.example', 'Bench Owner Ltd').lastInsertRowid);
    const others = Array.from({ length: OTHER_BUSINESSES }, (_, i) => Number(addUser.run(`other${i}@bench.example`, `Other ${i}`).lastInsertRowid));
    const total = OWN + OTHERS;
    for (let i = 0; i < total; i++) {
      // Interleaved in time as real traffic would be, so the owner's rows are spread across pages.
      const own = Math.floor(((i + 1) * OWN) / total) > Math.floor((i * OWN) / total);
      const userId = own ? ownerId : others[i % OTHER_BUSINESSES]!;
      const status = statuses[i % 3]!;
      addCall.run(
        userId,
        `+4477009${String(i % 100000).padStart(5, '0')}`,
        status,
        status === 'missed' ? 0 : 20 + (i % 180),
        now - twoYears + Math.floor((i / total) * twoYears),
        status === 'missed' ? null : summary,
        status === 'voicemail' ? transcript : null,
        status === 'voicemail' ? `call-${i}.wav` : null,
      );
    }
  })();
  sqlite.pragma('optimize');
  const counts = sqlite.prepare('select count(*) as n, sum(user_id = ?) as own from calls').get(ownerId) as { n: number; own: number };
  console.log(`seeded ${counts.n} calls (${counts.own} for the measured business) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return ownerId;
}

const ownerId = seed();
const cookie = `sid=${(await createSession(db, ownerId, new Date())).id}`;

async function measure(label: string, path: string) {
  const times: number[] = [];
  let bytes = 0;
  let rows = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = performance.now();
    const res = await fetch(server.url + path, { headers: { cookie } });
    const body = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
    if (i >= WARMUP) times.push(ms);
    bytes = body.length;
    rows = (JSON.parse(body) as { callLogs: unknown[] }).callLogs.length;
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(1);
  console.log(`${label.padEnd(44)} rows=${String(rows).padStart(4)} body=${(bytes / 1024).toFixed(0).padStart(4)} KB  p50=${pct(50)} ms  p95=${pct(95)} ms  max=${pct(100)} ms`);
}

// A cursor half-way back through the owner's history: keyset paging must not slow down with depth.
const middle = sqlite
  .prepare('select created_at as createdAt, id from calls where user_id = ? order by created_at desc, id desc limit 1 offset ?')
  .get(ownerId, Math.floor(OWN / 2)) as { createdAt: number; id: number };
const deepCursor = encodeCallLogCursor({ createdAtMs: middle.createdAt, id: middle.id });

// The query alone, in process: separates SQLite from HTTP and serialisation.
{
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = performance.now();
    await listCallLogs(db, { userId: ownerId }, { limit: 500 });
    if (i >= WARMUP) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`listCallLogs(limit 500) in process: p50=${times[RUNS / 2]!.toFixed(1)} ms  p95=${times[Math.floor(RUNS * 0.95)]!.toFixed(1)} ms`);
}

// Figures depend heavily on what else the machine is doing: print it with them.
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs`);
console.log(`HTTP over loopback, ${RUNS} sequential requests each after ${WARMUP} warm-up`);
await measure('GET /api/call-logs (default: 500 newest)', '/api/call-logs');
await measure('GET /api/call-logs?limit=50', '/api/call-logs?limit=50');
await measure(`GET /api/call-logs?limit=50&before=<${(OWN / 2).toLocaleString("en-GB")} back>`, `/api/call-logs?limit=50&before=${deepCursor}`);
await measure('GET /api/call-logs?limit=1000', '/api/call-logs?limit=1000');
await server.close();
