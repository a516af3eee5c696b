// What nuisance screening costs a call before it is answered (issues 43, 53): screenBeforeAnswer,
// the DID's owner with their mark, then the caller's counting SPAM marks (counted at lookup time),
// with 100,000 numbers on the box-wide list (three businesses' marks each) and 1,000 businesses,
// on SQLite and PostgreSQL. Goal: p95 < 5 ms.
// Prints figures; asserts nothing. Run: npx tsx bench/screening.ts [numbers]
import { tablesOf } from '../core/db/schema.js';
import { screenBeforeAnswer } from '../core/screening/lookup.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { startTestServer, type TestServer } from '../test/helpers/server.js';
import { machine, percentile, report } from './lib/report.js';

const LISTED = Number(process.argv[2] ?? process.env.BENCH_SCREENING_NUMBERS ?? 100_000);
const OWNERS = 1000;
const RUNS = 5000;
const WARMUP = 500;
const CHUNK = 500;

const boxNumber = (i: number) => `+4477${String(10_000_000 + i).padStart(8, '0')}`;
const did = (i: number) => `+44113${String(1_000_000 + i).padStart(7, '0')}`;

async function seed(server: TestServer): Promise<void> {
  const db = server.database.db;
  const { phoneNumbers, spamMarks, users } = tablesOf(db);
  const now = new Date();
  const ownerIds: number[] = [];
  for (let i = 0; i < OWNERS; i += CHUNK) {
    const rows = await db
      .insert(users)
      .values(Array.from({ length: Math.min(CHUNK, OWNERS - i) }, (_, k) => ({ email: `owner${i + k}@bench.example`, passwordHash: 'x', accountStatus: 'active' as const })))
      .returning({ id: users.id });
    ownerIds.push(...rows.map((r) => r.id));
  }
  for (let i = 0; i < OWNERS; i += CHUNK) {
    await db.insert(phoneNumbers).values(ownerIds.slice(i, i + CHUNK).map((userId, k) => ({ phoneNumber: did(i + k), provider: 'static', providerSid: did(i + k), userId, assignedAt: now })));
  }
  for (let i = 0; i < LISTED; i += CHUNK) {
    // Three businesses' SPAM marks list each number.
    const marks = Array.from({ length: Math.min(CHUNK, LISTED - i) }, (_, k) => [0, 1, 2].map((j) => ({ userId: ownerIds[((i + k) * 3 + j) % OWNERS]!, number: boxNumber(i + k), verdict: 'spam' as const, markedAt: now }))).flat();
    await db.insert(spamMarks).values(marks).onConflictDoNothing();
  }
  // Every owner has a few marks of their own (some allowing a listed number).
  for (let i = 0; i < OWNERS; i += CHUNK / 5) {
    const marks = ownerIds.slice(i, i + CHUNK / 5).flatMap((userId, k) =>
      Array.from({ length: 5 }, (_, m) => ({ userId, number: boxNumber(((i + k) * 5 + m) * 7 % LISTED), verdict: (m === 0 ? 'allow' : 'spam') as 'allow' | 'spam', markedAt: now })),
    );
    await db.insert(spamMarks).values(marks).onConflictDoNothing();
  }
}

async function measure(server: TestServer): Promise<{ p50: number; p95: number; screened: number }> {
  const db = server.database.db;
  const times: number[] = [];
  let screened = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // Half the callers are on the list, half are not; any of the 1,000 businesses.
    const caller = i % 2 ? boxNumber((i * 7919) % LISTED) : `+4479${String(10_000_000 + i).padStart(8, '0')}`;
    const t = performance.now();
    const v = await screenBeforeAnswer(db, did((i * 31) % OWNERS), caller, new Date());
    const ms = performance.now() - t;
    if (i >= WARMUP) {
      times.push(ms);
      if (v.screen) screened++;
    }
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), screened };
}

const postgres = await startPostgres();
try {
  console.log(machine());
  for (const engine of ['SQLite', 'PostgreSQL'] as const) {
    const env: Record<string, string> = engine === 'PostgreSQL' ? { DATABASE_URL: await postgres.createDatabase({ migrated: true }) } : {};
    const server = await startTestServer({ env });
    try {
      const seeded = performance.now();
      await seed(server);
      console.log(`${engine}: seeded ${LISTED.toLocaleString('en-GB')} box-wide numbers, ${OWNERS} businesses in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
      const f = await measure(server);
      console.log(`${engine}: screenBeforeAnswer p50 ${f.p50.toFixed(3)} ms, p95 ${f.p95.toFixed(3)} ms over ${RUNS} lookups (${f.screened} screened)`);
      report({ bench: 'screening', measure: `screening before answering p95, ${LISTED.toLocaleString('en-GB')} listed numbers, ${engine}`, value: `${f.p95.toFixed(2)} ms`, budget: '< 5 ms' });
    } finally {
      await server.close();
    }
  }
} finally {
  await postgres.stop();
}
