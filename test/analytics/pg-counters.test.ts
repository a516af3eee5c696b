// Property test, PostgreSQL: the analytics counters (call_stats, call_hour_stats) kept by
// drizzle-pg/0001_call_stats_triggers.sql stay exact after any sequence of writes to calls:
// single and multi-row inserts, updates of every counted column (one row or many), calls
// moved in time or between owners, single and bulk deletes, an owner's deletion (cascade) and
// rolled-back transactions. After every step the counter tables must equal a regrouping of
// the calls by London day and hour from the time-zone database (counter-model.ts, shared
// with the SQLite property test). Seeded: a failure names the seed and step.
import { and, eq, inArray, lt } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import { CALL_URGENCIES } from '../../contract/enums.js';
import { openPostgres, type PgDb, type PostgresHandle } from '../../core/db/pg/open-postgres.js';
import { callHourStats, calls, callStats, users } from '../../core/db/pg/schema.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { bruteForceCounters, randomTime, rng, type Counters } from './counter-model.js';

const server = usePostgres();
const quiet = { info: () => {}, warn: () => {} };

const STATUSES = ['missed', 'answered', 'voicemail'] as const;
const TRANSCRIPTION = ['none', 'pending', 'done', 'failed'] as const;
const URGENCIES = [null, ...CALL_URGENCIES] as const;
type Rng = ReturnType<typeof rng>;

const newCall = (r: Rng, userId: number) => ({
  userId,
  fromNumber: '+447700900001',
  toNumber: '+441130000000',
  createdAt: new Date(randomTime(r)),
  status: r.pick(STATUSES),
  duration: r.int(600),
  notificationSent: r.next() < 0.5,
  notificationError: r.next() < 0.2 ? 'provider refused' : null,
  transcriptionStatus: r.pick(TRANSCRIPTION),
  urgency: r.pick(URGENCIES),
});

/** Some of a call's counted columns, changed. */
function randomChange(r: Rng, owners: number[]) {
  const all = {
    status: r.pick(STATUSES),
    duration: r.int(600),
    notificationSent: r.next() < 0.5,
    notificationError: r.next() < 0.5 ? 'timeout' : null,
    transcriptionStatus: r.pick(TRANSCRIPTION),
    urgency: r.pick(URGENCIES),
    createdAt: new Date(randomTime(r)),
    userId: r.pick(owners),
  };
  return Object.fromEntries(Object.entries(all).filter(() => r.next() < 0.4));
}

async function storedCounters(db: PgDb) {
  const nonZero = (c: Counters) => Object.values(c).some((v) => v !== 0);
  const byDayHour = new Map<string, Counters>();
  for (const { userId, day, hour, ...c } of await db.select().from(callStats)) if (nonZero(c)) byDayHour.set(`${userId}/${day}/${hour}`, c);
  const byHour = new Map<string, Counters>();
  for (const { userId, hour, ...c } of await db.select().from(callHourStats)) if (nonZero(c)) byHour.set(`${userId}/${hour}`, c);
  return { byDayHour, byHour };
}

let emailSeq = 0;
const newOwner = async (db: PgDb) =>
  (await db.insert(users).values({ email: `pg${++emailSeq}@example.co.uk`, passwordHash: 'x', accountStatus: 'active' }).returning({ id: users.id }))[0]!.id;

/** One random write; returns what it did. */
async function step(r: Rng, handle: PostgresHandle, owners: number[]): Promise<string> {
  const { db } = handle;
  const ids = (await db.select({ id: calls.id }).from(calls)).map((c) => c.id);
  const roll = r.int(10);
  if (roll <= 2 || ids.length < 3) {
    const n = 1 + r.int(4);
    await db.insert(calls).values(Array.from({ length: n }, () => newCall(r, r.pick(owners))));
    return `insert ${n}`;
  }
  if (roll <= 4) {
    const set = randomChange(r, owners);
    if (Object.keys(set).length === 0) return 'nothing';
    await db.update(calls).set(set).where(eq(calls.id, r.pick(ids)));
    return `update one (${Object.keys(set).join(', ')})`;
  }
  if (roll === 5) {
    const set = randomChange(r, owners);
    if (Object.keys(set).length === 0) return 'nothing';
    await db.update(calls).set(set).where(eq(calls.userId, r.pick(owners)));
    return `update an owner's calls (${Object.keys(set).join(', ')})`;
  }
  if (roll === 6) {
    await db.delete(calls).where(inArray(calls.id, [r.pick(ids), r.pick(ids)]));
    return 'delete calls';
  }
  if (roll === 7) {
    await db.delete(calls).where(and(eq(calls.userId, r.pick(owners)), lt(calls.createdAt, new Date(randomTime(r)))));
    return 'delete older calls (retention)';
  }
  if (roll === 8 && owners.length > 1) {
    const gone = owners.splice(r.int(owners.length), 1)[0]!;
    await db.delete(users).where(eq(users.id, gone));
    owners.push(await newOwner(db));
    return 'delete an owner (cascade)';
  }
  // Written and then rolled back: the counters' writes go with it.
  const client = await handle.pool.connect();
  try {
    const tx = drizzle(client);
    await client.query('begin');
    await tx.insert(calls).values(newCall(r, r.pick(owners)));
    await tx.update(calls).set({ status: 'answered', duration: 99 }).where(eq(calls.id, r.pick(ids)));
    await tx.delete(calls).where(eq(calls.id, r.pick(ids)));
    await client.query('rollback');
  } finally {
    client.release();
  }
  return 'rolled back';
}

describe('analytics counters on PostgreSQL', () => {
  it.each([1, 2, 3])('stay exact after random writes (seed %i)', async (seed) => {
    const handle = await openPostgres(await server().createDatabase({ migrated: true }), quiet);
    try {
      const r = rng(seed);
      const owners = [await newOwner(handle.db), await newOwner(handle.db), await newOwner(handle.db)];
      const done = new Set<string>();
      let most = 0;
      for (let i = 0; i < 120; i++) {
        const what = await step(r, handle, owners);
        done.add(what.replace(/ \(.*\)$/, ''));
        const rows = await handle.db.select().from(calls);
        most = Math.max(most, rows.length);
        const expected = bruteForceCounters(rows);
        expect(await storedCounters(handle.db), `seed ${seed}, step ${i} (${what})`).toEqual(expected);
      }
      // Every kind of write was made (so the property was tried on each).
      expect([...done].filter((k) => k !== 'nothing' && !k.startsWith('insert')).sort()).toEqual(
        ['delete an owner', 'delete calls', 'delete older calls', 'rolled back', "update an owner's calls", 'update one'].sort(),
      );
      expect(most).toBeGreaterThan(20);
    } finally {
      await handle.close();
    }
  }, 120_000);
});
