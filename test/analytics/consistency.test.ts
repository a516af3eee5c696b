// Property test: the analytics counters (call_stats per London day and hour, call_hour_stats
// per London hour of day) are exact after any sequence of the writes the appliance makes to
// calls: new calls (including a replayed channel), finishing them, post-call and notifier
// updates, retention, caller erasure, single deletes, owner deletion (cascade), rolled-back
// transactions, and rows moved in time or between owners. After every step the figures from
// computeAnalytics must equal a brute-force computation straight from the calls table, and
// the counter tables must equal a regrouping of the calls. London days and hours in the
// brute force come from the platform's time-zone database (Intl), not from the SQL rule nor
// from core/time/london-time.ts. Seeded, so a failure names the seed and step that
// reproduce it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ANALYTICS_PERIODS, type AnalyticsPeriod, type ApiAnalytics } from '../../contract/api.js';
import { CALLS_PER_DAY_WINDOW, computeAnalytics, percent, RECENT_CALLS } from '../../core/analytics/queries.js';
import { finishCall, openCall } from '../../core/calls/call-store.js';
import { openDatabase, type DatabaseHandle, sqliteOf } from '../../core/db/client.js';
import { type Call } from '../../core/db/schema.js';
import { calls, users } from '../helpers/tables.js';
import { markPostCallPending } from '../../core/post-call/post-call.js';
import { eraseCaller } from '../../core/privacy/caller-data.js';
import { applyRetention } from '../../core/privacy/retention.js';
import { insertUser } from '../../core/accounts/users.js';
import { transaction } from '../../core/db/transaction.js';
import { add, bruteForceCounters, counters, dayNumber, london, NOWS, randomTime, rng, type Counters } from './counter-model.js';

// Each test gets a fresh database (migrations applied), so runs are independent and cheap.
let handle: DatabaseHandle;
let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-consistency-'));
});
beforeEach(() => {
  handle = openDatabase(':memory:');
});
afterEach(() => handle.close());
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// --- Brute force, from the calls table and Intl only -------------------------------------

const dateOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** Whether a London date falls in an urgency period ending today (London), by the time-zone database. */
function inPeriod(date: string, today: string, period: AnalyticsPeriod): boolean {
  const back = dayNumber(today) - dayNumber(date);
  if (period === '7d') return back >= 0 && back < 7;
  if (period === '30d') return back >= 0 && back < 30;
  if (period === 'month') return date.slice(0, 7) === today.slice(0, 7);
  return true;
}

function bruteForceAnalytics(rows: Call[], now: Date, period: AnalyticsPeriod): ApiAnalytics {
  const today = london(now.getTime()).date;
  const all = rows.reduce<Counters | undefined>((s, c) => add(s, counters(c)), undefined);
  const callsPerDay: Record<string, number> = {};
  for (let d = dayNumber(today) - (CALLS_PER_DAY_WINDOW - 1); d <= dayNumber(today); d++) callsPerDay[dateOf(d)] = 0;
  const peakHours: Record<string, number> = {};
  for (let h = 0; h < 24; h++) peakHours[String(h)] = 0;
  let thisMonth = 0;
  for (const c of rows) {
    const { date, hour } = london(c.createdAt.getTime());
    if (date in callsPerDay) callsPerDay[date]!++;
    peakHours[String(hour)]!++;
    if (date.slice(0, 7) === today.slice(0, 7)) thisMonth++;
  }
  const inside = rows.filter((c) => inPeriod(london(c.createdAt.getTime()).date, today, period));
  const count = (u: Call['urgency']) => inside.filter((c) => c.urgency === u).length;
  const urgencyBreakdown = { period, calls: inside.length, urgent: count('urgent'), normal: count('normal'), low: count('low'), unassessed: count(null) };
  const total = all?.calls ?? 0;
  const recent = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).slice(0, RECENT_CALLS);
  return {
    totalCalls: total,
    thisMonthCalls: thisMonth,
    avgDuration: total ? Math.round(all!.durationSum / total) : 0,
    missedCallRate: percent(all?.missed ?? 0, total),
    callsPerDay,
    peakHours,
    statusBreakdown: { missed: all?.missed ?? 0, answered: all?.answered ?? 0, voicemail: all?.voicemail ?? 0 },
    notificationSuccessRate: percent(all?.notified ?? 0, all?.notifyOutcomes ?? 0),
    transcriptionSuccessRate: percent(all?.transcribed ?? 0, all?.transcribeOutcomes ?? 0),
    recentCalls: recent.map((c) => ({ id: c.id, fromNumber: c.fromNumber, status: c.status, duration: c.duration, createdAt: c.createdAt.toISOString() })),
    urgencyBreakdown,
    screenedCalls: inside.filter((c) => c.screenedBy !== null).length,
  };
}

const COUNTER_SQL = `calls, missed, answered, voicemail, duration_sum as durationSum, notified, notify_outcomes as notifyOutcomes,
  transcribed, transcribe_outcomes as transcribeOutcomes, urgent, normal, low`;
function storedCounters() {
  const nonZero = (r: Counters) => Object.values(r).some((v) => v !== 0);
  const strip = <T extends Counters>(r: T): Counters => {
    const { calls, missed, answered, voicemail, durationSum, notified, notifyOutcomes, transcribed, transcribeOutcomes, urgent, normal, low } = r;
    return { calls, missed, answered, voicemail, durationSum, notified, notifyOutcomes, transcribed, transcribeOutcomes, urgent, normal, low };
  };
  const dayHour = sqliteOf(handle).prepare(`select user_id as userId, day, hour, ${COUNTER_SQL} from call_stats`).all() as (Counters & { userId: number; day: number; hour: number })[];
  const hour = sqliteOf(handle).prepare(`select user_id as userId, hour, ${COUNTER_SQL} from call_hour_stats`).all() as (Counters & { userId: number; hour: number })[];
  return {
    byDayHour: new Map(dayHour.map((r) => [`${r.userId}/${r.day}/${r.hour}`, strip(r)] as const).filter(([, c]) => nonZero(c))),
    byHour: new Map(hour.map((r) => [`${r.userId}/${r.hour}`, strip(r)] as const).filter(([, c]) => nonZero(c))),
  };
}

// --- Random writes -----------------------------------------------------------------------

const NUMBERS = ['+447700900001', '+447700900002', '+447700900003', '+447700900004', '+447700900005', '+447700900006'];
const STATUSES = ['missed', 'answered', 'voicemail'] as const;
const TRANSCRIPTION = ['none', 'pending', 'done', 'failed'] as const;

let emailSeq = 0;
const newOwner = async () => (await insertUser(handle.db, { email: `p${++emailSeq}@example.co.uk`, passwordHash: 'x', accountStatus: 'active' })).id;

const KINDS = [
  'applyRetention',
  'delete call',
  'delete owner',
  'eraseCaller',
  'finishCall',
  'insert',
  'markPostCallPending',
  'move call in time',
  'move call to another owner',
  'notification outcome',
  'openCall',
  'rolled-back transaction',
  'transcription done',
  'transcription failed',
  'urgency',
];
const URGENCIES = [null, 'urgent', 'normal', 'low'] as const;

interface World {
  owners: number[];
  deleted: number[];
  channels: string[];
}

/** One random write of the kinds the appliance makes to calls; returns what it did. */
async function randomWrite(r: ReturnType<typeof rng>, w: World): Promise<string> {
  const { db } = handle;
  const sqlite = sqliteOf(handle);
  const ids = () => (sqlite.prepare('select id from calls').pluck().all() as number[]);
  const someCall = () => {
    const all = ids();
    return all.length ? r.pick(all) : undefined;
  };
  const roll = r.int(100);
  if (roll < 25) {
    // The PBX opens a call (sometimes replaying a channel already stored: no second row).
    const channelId = w.channels.length && r.next() < 0.15 ? r.pick(w.channels) : `ch-${w.channels.length}-${r.int(1e9)}`;
    w.channels.push(channelId);
    const { existing } = await openCall(db, { userId: r.pick(w.owners), channelId, fromNumber: r.pick(NUMBERS), toNumber: '+441130000000', mode: r.pick(['voicemail', 'agent'] as const), createdAt: new Date(randomTime(r)) });
    return existing ? 'openCall (replayed channel)' : 'openCall';
  }
  if (roll < 36) {
    // A row written whole (imports, seeds): every counted column random.
    const status = r.pick(STATUSES);
    await db.insert(calls)
      .values({
        userId: r.pick(w.owners),
        fromNumber: r.pick(NUMBERS),
        toNumber: '+441130000000',
        status,
        duration: status === 'missed' ? 0 : r.int(600),
        createdAt: new Date(randomTime(r)),
        transcriptionStatus: r.pick(TRANSCRIPTION),
        notificationSent: r.next() < 0.5,
        notificationError: r.next() < 0.2 ? 'SMS: bad number' : null,
        recordingFile: r.next() < 0.5 ? `rec-${r.int(1e6)}.wav` : null,
        transcription: r.next() < 0.5 ? 'Hello' : null,
        urgency: r.pick(URGENCIES),
      });
    return 'insert';
  }
  const id = someCall();
  if (id === undefined) return 'nothing to change';
  if (roll < 47) {
    const status = r.pick(STATUSES);
    const done = await finishCall(db, id, { status, duration: status === 'missed' ? 0 : r.int(900), endedAt: new Date(), recordingFile: status === 'voicemail' ? `rec-${id}.wav` : null });
    return done ? 'finishCall' : 'finishCall (already final)';
  }
  if (roll < 52) {
    await markPostCallPending(db, id);
    return 'markPostCallPending';
  }
  if (roll < 56) {
    // As core/post-call/post-call.ts saves a summary with its urgency (or a test clears it).
    await db.update(calls).set({ aiSummary: 'Wants a call back', summaryStatus: 'done', urgency: r.pick(URGENCIES) }).where(eq(calls.id, id));
    return 'urgency';
  }
  if (roll < 60) {
    // As core/post-call/post-call.ts saves a transcript or a failure.
    const set = r.next() < 0.6 ? { transcription: 'Please call back', transcriptionStatus: 'done' as const } : { transcriptionStatus: 'failed' as const };
    await db.update(calls).set(set).where(eq(calls.id, id));
    return `transcription ${set.transcriptionStatus}`;
  }
  if (roll < 66) {
    // As core/notify/notifier.ts records a sent text (in a transaction) or a problem (or clears it).
    if (r.next() < 0.5) await transaction(db, async () => await db.update(calls).set({ notificationSent: true }).where(eq(calls.id, id)));
    else await db.update(calls).set({ notificationError: r.next() < 0.7 ? 'SMS provider down' : null }).where(eq(calls.id, id));
    return 'notification outcome';
  }
  if (roll < 70) {
    const days = [null, 0, 1, 30, 400] as const;
    await applyRetention(db, dataDir, { recordingDays: r.pick(days), transcriptDays: r.pick(days) }, r.pick(NOWS));
    return 'applyRetention';
  }
  if (roll < 76) {
    const owner = r.pick(w.owners);
    await eraseCaller(db, dataDir, owner, r.pick(NUMBERS));
    return 'eraseCaller';
  }
  if (roll < 81) {
    await db.delete(calls).where(eq(calls.id, id));
    return 'delete call';
  }
  if (roll < 83) {
    // An owner deleted: their calls go by cascade, their counters with them.
    const owner = r.pick(w.owners);
    await db.delete(users).where(eq(users.id, owner));
    w.deleted.push(owner);
    w.owners = w.owners.filter((o) => o !== owner).concat(await newOwner());
    return 'delete owner';
  }
  if (roll < 90) {
    // A transaction that fails half-way: neither the calls nor the counters change.
    try {
      await transaction(db, async () => {
        await db.update(calls).set({ status: 'answered', duration: 77, transcriptionStatus: 'done', urgency: 'urgent' }).where(eq(calls.id, id));
        await db.insert(calls).values({ userId: r.pick(w.owners), fromNumber: r.pick(NUMBERS), toNumber: '+441130000000', createdAt: new Date(randomTime(r)) });
        await db.delete(calls).where(and(eq(calls.userId, r.pick(w.owners)), eq(calls.fromNumber, r.pick(NUMBERS))));
        throw new Error('rolled back');
      });
    } catch (err) {
      if ((err as Error).message !== 'rolled back') throw err;
    }
    return 'rolled-back transaction';
  }
  if (roll < 95) {
    await db.update(calls).set({ createdAt: new Date(randomTime(r)) }).where(eq(calls.id, id));
    return 'move call in time';
  }
  await db.update(calls).set({ userId: r.pick(w.owners) }).where(eq(calls.id, id));
  return 'move call to another owner';
}

async function checkEverything(w: World, context: string, now: Date) {
  const rows = await handle.db.select().from(calls);
  const expected = bruteForceCounters(rows);
  const stored = storedCounters();
  expect(stored.byHour, `${context}: call_hour_stats`).toEqual(expected.byHour);
  expect(stored.byDayHour, `${context}: call_stats`).toEqual(expected.byDayHour);
  for (const owner of w.owners) {
    const mine = rows.filter((c) => c.userId === owner);
    for (const period of ANALYTICS_PERIODS) {
      expect(await computeAnalytics(handle.db, owner, now, period), `${context}: owner ${owner}, now ${now.toISOString()}, ${period}`).toEqual(bruteForceAnalytics(mine, now, period));
    }
  }
  for (const gone of w.deleted) {
    const left = sqliteOf(handle).prepare('select (select count(*) from call_stats where user_id = ?) + (select count(*) from call_hour_stats where user_id = ?) as n').get(gone, gone) as { n: number };
    expect(left.n, `${context}: counters left for deleted owner ${gone}`).toBe(0);
  }
  return rows.length;
}

describe('analytics counters stay exact under random writes', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: 250 random writes, checked after each`, async () => {
      const r = rng(seed);
      const w: World = { owners: [await newOwner(), await newOwner(), await newOwner()], deleted: [], channels: [] };
      const kinds = new Set<string>();
      let most = 0;
      for (let step = 0; step < 250; step++) {
        const what = await randomWrite(r, w);
        kinds.add(what.replace(/ \(.*\)$/, ''));
        // Each step checks the figures at one of the NOWS in turn (each is checked ~50 times).
        most = Math.max(most, await checkEverything(w, `seed ${seed}, step ${step} (${what})`, NOWS[step % NOWS.length]!));
      }
      // Not a vacuous pass: every kind of write happened, on a table with real content.
      expect([...kinds]).toEqual(expect.arrayContaining(KINDS));
      expect(most).toBeGreaterThan(15);
    });
  }
});

describe('the 0004 backfill', () => {
  it('counts calls stored before the migration exactly as the triggers count new ones', async () => {
    const r = rng(99);
    const w: World = { owners: [await newOwner(), await newOwner(), await newOwner()], deleted: [], channels: [] };
    for (let step = 0; step < 200; step++) await randomWrite(r, w);
    const expected = bruteForceCounters(await handle.db.select().from(calls)).byHour;
    expect(expected.size).toBeGreaterThan(10);
    expect(storedCounters().byHour).toEqual(expected);

    const sql = fs.readFileSync(path.join(import.meta.dirname, '../../drizzle/0004_call_hour_stats.sql'), 'utf8');
    const backfill = sql.split('--> statement-breakpoint').at(-1)!;
    expect(backfill).toMatch(/INSERT INTO call_hour_stats/);
    sqliteOf(handle).exec('delete from call_hour_stats');
    sqliteOf(handle).exec(backfill);
    sqliteOf(handle).exec(backfill0009('call_hour_stats')); // 0004 predates urgency: 0009 fills it in
    expect(storedCounters().byHour).toEqual(expected);
  });
});

/** 0009's backfill of the urgency counters for one table: its statements after the triggers. */
function backfill0009(table: 'call_stats' | 'call_hour_stats'): string {
  const sql = fs.readFileSync(path.join(import.meta.dirname, '../../drizzle/0009_call_emails.sql'), 'utf8');
  const statement = sql.split('--> statement-breakpoint').find((s) => s.includes(`INSERT INTO ${table} (user_id,`) && s.includes('GROUP BY'));
  expect(statement).toBeDefined();
  return statement!;
}

describe('the 0009 backfill', () => {
  it('counts the urgency of calls assessed before the migration exactly as the triggers do', async () => {
    const r = rng(7);
    const w: World = { owners: [await newOwner(), await newOwner(), await newOwner()], deleted: [], channels: [] };
    for (let step = 0; step < 200; step++) await randomWrite(r, w);
    const expected = bruteForceCounters(await handle.db.select().from(calls));
    const totals = [...expected.byHour.values()].reduce((a, c) => ({ urgent: a.urgent + c.urgent, normal: a.normal + c.normal, low: a.low + c.low }), { urgent: 0, normal: 0, low: 0 });
    expect(Math.min(totals.urgent, totals.normal, totals.low)).toBeGreaterThan(0);

    sqliteOf(handle).exec('update call_stats set urgent = 0, normal = 0, low = 0; update call_hour_stats set urgent = 0, normal = 0, low = 0');
    expect(storedCounters().byHour).not.toEqual(expected.byHour);
    sqliteOf(handle).exec(backfill0009('call_stats'));
    sqliteOf(handle).exec(backfill0009('call_hour_stats'));
    const stored = storedCounters();
    expect(stored.byDayHour).toEqual(expected.byDayHour);
    expect(stored.byHour).toEqual(expected.byHour);
  });
});
