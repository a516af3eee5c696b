// SQLite and PostgreSQL side by side in one run (issue 25): API p95 of the call logs and the
// analytics at 1,000,000 calls (100,000 for the measured business), each engine behind the
// same core over HTTP; then the durable queue's claim throughput on PostgreSQL with one and
// two workers (separate connection pools, as separate cores), and booking claims on PostgreSQL
// (one owner's consecutive slots, claimed by one and by two workers: every claim of the two
// contends for the same owner). Prints figures; asserts nothing.
// Run: npx tsx bench/engines.ts   (BENCH_OWN_CALLS / BENCH_OTHER_CALLS / BENCH_JOBS / BENCH_CLAIMS scale it)
import { sql } from 'drizzle-orm';
import { createSession } from '../core/auth/sessions.js';
import { claimSlot } from '../core/booking/store/claim.js';
import type { BookingRules } from '../core/booking/rules/booking-rules.js';
import { WEEKDAYS } from '../contract/call-handling.js';
import { execute, queryRow } from '../core/db/raw.js';
import { openAppDatabase } from '../core/db/open.js';
import { JobQueue } from '../core/jobs/queue.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { ownerWithService } from '../test/booking/fixtures.js';
import { ownerMember } from '../core/team/store.js';
import { machine, percentile, report } from './lib/report.js';

const OWN = Number(process.env.BENCH_OWN_CALLS ?? 100_000);
const OTHERS = Number(process.env.BENCH_OTHER_CALLS ?? 900_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 400);
const OTHER_BUSINESSES = 99;
const RUNS = 200;
const WARMUP = 20;
const quiet = { info: () => {}, warn: () => {} };

type Engine = 'sqlite' | 'postgres';

/**
 * Seeds the calls in one INSERT … SELECT over a series, so both engines do the same work
 * (their analytics triggers included). Only the series and the timestamp differ.
 */
async function seed(server: TestServer, engine: Engine): Promise<number> {
  const { db } = server.database;
  const started = performance.now();
  const owner = await queryRow<{ id: number }>(db, sql`insert into users (email, password_hash, role, account_status, business_name) values ('owner@bench.example', 'x', 'customer', 'active', 'Bench Owner Ltd') returning id`);
  let firstOther = 0;
  for (let i = 0; i < OTHER_BUSINESSES; i++) {
    const row = await queryRow<{ id: number }>(db, sql`insert into users (email, password_hash, role, account_status, business_name) values (${`other${i}@bench.example`}, 'x', 'customer', 'active', ${`Other ${i}`}) returning id`);
    if (i === 0) firstOther = row!.id;
  }
  const total = OWN + OTHERS;
  const now = Date.now();
  const twoYears = 2 * 365 * 86_400_000;
  const at = `${now - twoYears} + (i * ${twoYears}) / ${total}`;
  const createdAt = engine === 'sqlite' ? at : `to_timestamp((${at})::double precision / 1000)`;
  const select = `select
      case when ((i + 1) * ${OWN}) / ${total} > (i * ${OWN}) / ${total} then ${owner!.id} else ${firstOther} + i % ${OTHER_BUSINESSES} end,
      '+4477009' || ${engine === 'sqlite' ? "substr('00000' || (i % 100000), -5, 5)" : "lpad((i % 100000)::text, 5, '0')"}, '+447700900001',
      case i % 3 when 0 then 'answered' when 1 then 'missed' else 'voicemail' end,
      case i % 3 when 1 then 0 else 20 + i % 180 end,
      ${createdAt},
      case i % 3 when 1 then null else 'Caller asked for a quote for a new boiler and would like a call back tomorrow morning.' end,
      case i % 3 when 2 then 'Hi, this is Sam from Leeds, I was hoping to get a quote for replacing my boiler. Could you call me back tomorrow morning please?' end,
      case i % 3 when 2 then 'call-' || i || '.wav' end,
      ${engine === 'sqlite' ? '1' : 'true'}`;
  const columns = '(user_id, from_number, to_number, status, duration, created_at, ai_summary, transcription, recording_file, notification_sent)';
  const statement =
    engine === 'sqlite'
      ? `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${total - 1}) insert into calls ${columns} ${select} from s`
      : `insert into calls ${columns} ${select} from generate_series(0::bigint, ${total - 1}) as s(i)`;
  await execute(db, sql.raw(statement));
  // The one statement updated the counter rows once per call in a single transaction; a live
  // box writes call by call and autovacuum keeps up, so the seed is vacuumed as it would be.
  await execute(db, sql.raw(engine === 'sqlite' ? 'pragma optimize' : 'vacuum analyze'));
  console.log(`${engine}: seeded ${total.toLocaleString('en-GB')} calls (${OWN.toLocaleString('en-GB')} for the measured business) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return owner!.id;
}

async function measure(server: TestServer, cookie: string, path: string): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = performance.now();
    const res = await fetch(server.url + path, { headers: { cookie } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body}`);
    if (i >= WARMUP) times.push(performance.now() - t);
    bytes = body.length;
  }
  // What was served, so an empty answer cannot pass for a fast one.
  console.log(`  ${path}: last body ${(bytes / 1024).toFixed(1)} KB`);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const routes = ['/api/call-logs?limit=50', '/api/call-logs', '/api/analytics', '/api/analytics?period=30d'];
const figures = new Map<string, Partial<Record<Engine, { p50: number; p95: number }>>>();

const postgres = await startPostgres();
try {
  for (const engine of ['sqlite', 'postgres'] as const) {
    const env: Record<string, string> = engine === 'postgres' ? { DATABASE_URL: await postgres.createDatabase({ migrated: true }) } : {};
    const server = await startTestServer({ env });
    try {
      const ownerId = await seed(server, engine);
      const cookie = `sid=${(await createSession(server.database.db, ownerId, new Date())).id}`;
      for (const route of routes) figures.set(route, { ...figures.get(route), [engine]: await measure(server, cookie, route) });
    } finally {
      await server.close();
    }
  }

  console.log(`\n${machine()}\nHTTP over loopback, ${RUNS} sequential requests each after ${WARMUP} warm-up; ms`);
  console.log(`${'route'.padEnd(30)} ${'SQLite p50'.padStart(11)} ${'p95'.padStart(7)} ${'PostgreSQL p50'.padStart(15)} ${'p95'.padStart(7)}`);
  for (const [route, byEngine] of figures) {
    const s = byEngine.sqlite!;
    const p = byEngine.postgres!;
    console.log(`${route.padEnd(30)} ${s.p50.toFixed(1).padStart(11)} ${s.p95.toFixed(1).padStart(7)} ${p.p50.toFixed(1).padStart(15)} ${p.p95.toFixed(1).padStart(7)}`);
    for (const [engine, f] of [['SQLite', s], ['PostgreSQL', p]] as const) {
      report({ bench: 'engines', measure: `GET ${route} p95, 1M calls, ${engine}`, value: `${f.p95.toFixed(1)} ms`, budget: '< 50 ms' });
    }
  }

  // Claim throughput: JOBS jobs claimed and completed by one worker, then by two (own pools).
  for (const workers of [1, 2]) {
    const url = await postgres.createDatabase({ migrated: true });
    const pools = await Promise.all(Array.from({ length: workers }, () => openAppDatabase({ kind: 'postgres', url }, quiet)));
    try {
      const queues = pools.map((pool) => new JobQueue(pool.db, () => new Date()));
      for (let i = 0; i < JOBS; i++) await queues[0]!.enqueue('bench', `bench:${i}`, { i });
      const started = performance.now();
      let done = 0;
      await Promise.all(
        queues.map(async (queue) => {
          for (;;) {
            const job = await queue.claim();
            if (!job) return;
            await queue.complete(job);
            done++;
          }
        }),
      );
      const perSecond = done / ((performance.now() - started) / 1000);
      console.log(`job claims on PostgreSQL, ${workers} worker${workers > 1 ? 's' : ''}: ${done} jobs claimed and completed, ${perSecond.toFixed(0)} jobs/s`);
      report({ bench: 'engines', measure: `job claim + complete, PostgreSQL, ${workers} worker(s)`, value: `${perSecond.toFixed(0)} jobs/s` });
    } finally {
      for (const pool of pools) await pool.close();
    }
  }

  // Booking claims: CLAIMS consecutive half-hour slots of one owner (open round the clock, no
  // notice), each claimed once, by one worker and then by two (own pools) taking turns from one
  // counter. Every claim reads the owner's bookings and inserts one, so the two contend throughout.
  const rules: BookingRules = {
    hours: Object.fromEntries(WEEKDAYS.map((d) => [d, [{ open: '00:00', close: '23:59' }]])) as BookingRules['hours'],
    holidayNations: [], noticeMinutes: 0, horizonDays: 365, dailyCap: null,
  };
  const from = Date.parse('2027-01-04T00:00:00Z');
  for (const workers of [1, 2]) {
    const url = await postgres.createDatabase({ migrated: true });
    const pools = await Promise.all(Array.from({ length: workers }, () => openAppDatabase({ kind: 'postgres', url }, quiet)));
    try {
      const { user, service } = await ownerWithService(pools[0]!.db, { durationMinutes: 30 });
      const owner = (await ownerMember(pools[0]!.db, user.id)).id;
      let next = 0;
      let booked = 0;
      const started = performance.now();
      await Promise.all(
        pools.map(async (pool) => {
          for (let i = next++; i < CLAIMS; i = next++) {
            const result = await claimSlot(pool.db, {
              ownerId: user.id, staffId: owner, ownerMemberId: owner, serviceId: service.id, durationMinutes: 30, bufferMinutes: 0, start: from + i * 1_800_000, slotKey: `bench:${i}`,
              callId: null, callerName: 'Bench', callerNumber: '+447700900001', rules, busy: [], now: from,
            });
            if (result.kind === 'booked') booked++;
          }
        }),
      );
      const perSecond = booked / ((performance.now() - started) / 1000);
      console.log(`booking claims on PostgreSQL, ${workers} worker${workers > 1 ? 's' : ''}: ${booked} of ${CLAIMS} slots booked, ${perSecond.toFixed(0)} claims/s`);
      report({ bench: 'engines', measure: `booking claim, one owner, PostgreSQL, ${workers} worker(s)`, value: `${perSecond.toFixed(0)} claims/s` });
    } finally {
      for (const pool of pools) await pool.close();
    }
  }
} finally {
  await postgres.stop();
}
