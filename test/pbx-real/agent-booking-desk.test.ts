// Issue 41, "two callers ask for the same slot at the same moment: one booked, one offered
// another (on SQLite, and on PostgreSQL with two cores)", on a real Asterisk with the REAL diary
// (core/booking's desk on the real database, not test/helpers/fake-booking-desk.ts). SIPp callers
// speak through espeak-ng; the Ollama double plays the model (test/doubles/ollama/booking-replier.ts).
// On PostgreSQL each caller's call is served by a different core: the harness's core, and a
// second core's services on their own connection pool to the same database (as two nodes of a
// cluster, sharing BOOKING_SECRET), so only the database can decide who wins.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { tablesOf } from '../../core/db/schema.js';
import { connectCalDav } from '../../core/booking/calendars/calendar-settings.js';
import { withAppServices, type Services } from '../../core/services.js';
import type { BookingDeskFactory, OfferedSlot } from '../../dialogue/agent/booking-desk.js';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { BOOKING_LINES, booked, offerTimes, readBack } from '../../dialogue/language/booking-lines.js';
import { bookingReplier } from '../doubles/ollama/booking-replier.js';
import { spokenDate, TEN_TO_FOUR_DAILY } from './booking-days.js';
import { startRadicale } from '../helpers/radicale.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent } from './agent-caller.js';
import type { SipCall } from './sipp.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const QUIET_MS = 1500;
const DAY_MS = 86_400_000;
const NUMBERS = ['+447700900111', '+447700900222'] as const;
const lines = (transcription: string | null) => transcription!.split('\n').map((l) => l.replace(/ \[interrupted\]$/, ''));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

const engines = [
  { name: 'SQLite, one core', postgres: false },
  { name: 'PostgreSQL, two cores on one database', postgres: true },
] as const;

describe.skipIf(!real.ok).each(engines)('the agent books on the real diary ($name), on a real Asterisk', { timeout: 300_000 }, (engine) => {
  const postgres = engine.postgres ? usePostgres() : undefined;
  let h: RealPbx;
  let second: { database: DatabaseHandle; services: Services } | undefined;
  /** Which core serves each call's desk, in the order calls open their booking walk. */
  const servedBy: string[] = [];

  beforeAll(async () => {
    // Radicale listens on loopback: the operator's setting names it, as a box with its own calendar server would.
    const env: Record<string, string> = { AGENT_VOICEMAIL_AFTER_MS: '30000', CALENDAR_ALLOWED_PRIVATE_HOSTS: '127.0.0.1' };
    if (postgres) env.DATABASE_URL = await postgres().createDatabase({ migrated: true });
    // The first call's walk gets the harness core's desk, the next the second core's, and so on.
    const desk: BookingDeskFactory = (ownerId, opts) => {
      const useSecond = second !== undefined && servedBy.length % 2 === 1;
      servedBy.push(useSecond ? 'second' : 'first');
      return (useSecond ? second!.services : h.server.services).booking.desk(ownerId, opts);
    };
    h = await startRealPbx({ agent: true, env, bookingDesk: desk });
    h.ollama.replier = bookingReplier('A caller asked for a booking.');
    if (postgres) {
      const s = h.server.services;
      const database = await openAppDatabase(s.config.database, quiet);
      const services = withAppServices(
        { config: s.config, database, mailer: s.mailer, now: s.now, log: s.log, health: new Map(), hooks: s.hooks, agentEngines: s.agentEngines },
        { booking: { keys: s.booking.keys } },
      );
      second = { database, services };
    }
  });
  afterAll(async () => {
    await h?.close();
    await second?.database.close();
  });

  /** A business with one bookable service, open for bookings 10:00–16:00 every day. */
  async function business() {
    const { did, userId } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: 'Q: Where are you?\nA: In Leeds.' });
    const db = h.server.database.db;
    const { bookingRules, bookingServices } = tablesOf(db);
    await db.insert(bookingServices).values({ userId, name: 'boiler service', durationMinutes: 60, bufferMinutes: 0 });
    await db.insert(bookingRules).values({ userId, hours: TEN_TO_FOUR_DAILY, noticeMinutes: 120, horizonDays: 14, dailyCap: null, updatedAt: new Date() });
    return { did, userId };
  }

  /** A day 3+ days ahead whose first three times (what a caller asking for it hears) start at ten o'clock. */
  async function dayToAsk(userId: number): Promise<{ wish: string; slots: OfferedSlot[] }> {
    const desk = h.server.services.booking.desk(userId, { preview: true });
    for (let ahead = 3; ahead < 12; ahead++) {
      const wish = `I would like to book a boiler service on ${spokenDate(new Date(Date.now() + ahead * DAY_MS))}.`;
      const offer = await desk.offer({ wish });
      if (offer.kind === 'offered' && offer.slots[0]!.spoken.endsWith(" at ten o'clock")) return { wish, slots: offer.slots };
    }
    throw new Error('no day in the next fortnight offers ten o\'clock first');
  }

  it('two callers take the same time at the same moment: one booking row, the other caller hears it was taken and another time', async () => {
    const { did, userId } = await business();
    const { wish, slots } = await dayToAsk(userId);
    const servedBefore = servedBy.length;
    const batch = await h.calls(NUMBERS.map((from) => ({ did, from })));
    const calls = batch.calls as [SipCall, SipCall];
    await Promise.all(calls.map((c) => hearsAgent(h, c, 0, agentGreeting('Hale Plumbing'), QUIET_MS)));
    const bothSay = async (text: string, hear: (i: number) => string) => {
      const asked = await Promise.all(calls.map((c) => askAgent(h, c, text)));
      await Promise.all(calls.map((c, i) => hearsAgent(h, c, asked[i]!.endedAt, hear(i), QUIET_MS)));
    };
    await bothSay(wish, () => offerTimes(slots));
    await bothSay("Ten o'clock please.", () => BOOKING_LINES.askName);
    await bothSay('My name is Sam Jones.', (i) => readBack(slots[0]!, 'Sam Jones', NUMBERS[i]!));
    // On PostgreSQL the two calls were served by the two cores.
    expect(new Set(servedBy.slice(servedBefore)).size).toBe(engine.postgres ? 2 : 1);

    const yes = await Promise.all(calls.map((c) => askAgent(h, c, 'Yes please.')));
    const db = h.server.database.db;
    const { bookings } = tablesOf(db);
    const [row] = await waitUntil(async () => {
      const rows = await db.select().from(bookings).where(eq(bookings.userId, userId));
      if (!rows.length) throw new Error('no booking yet');
      return rows;
    }, 60_000, 100);
    const won = NUMBERS.indexOf(row!.callerNumber as (typeof NUMBERS)[number]);
    const lost = 1 - won;
    expect(row).toMatchObject({ startAt: slots[0]!.start, callerName: 'Sam Jones', status: 'booked' });
    await hearsAgent(h, calls[won]!, yes[won]!.endedAt, booked(slots[0]!), QUIET_MS);
    const told = await hearsAgent(h, calls[lost]!, yes[lost]!.endedAt, BOOKING_LINES.taken, 20);
    // The next free times after ten: the winner's hour is taken, so eleven o'clock first.
    const next = await h.server.services.booking.desk(userId, { preview: true }).offer({ wish: '', after: slots[0]!.start });
    if (next.kind !== 'offered') throw new Error(`expected the next free times, got ${next.kind}`);
    expect(next.slots[0]!.start.getTime()).toBe(slots[0]!.start.getTime() + 60 * 60_000);
    await hearsAgent(h, calls[lost]!, told, offerTimes(next.slots), QUIET_MS);
    await Promise.all(calls.map((c) => c.hangUp()));

    // Exactly one booking, from the winner's call; the loser's transcript has the other times.
    const all = await db.select().from(bookings).where(eq(bookings.userId, userId));
    expect(all).toHaveLength(1);
    const rows = await waitUntil(async () => {
      const r = await h.rows(did);
      if (r.length < 2 || r.some((c) => !c.endedAt || !h.finished.includes(c.id))) throw new Error('calls not finished yet');
      return r;
    }, 60_000, 100);
    const lostRow = rows.find((r) => r.fromNumber === NUMBERS[lost])!;
    expect(all[0]!.callId).toBe(rows.find((r) => r.fromNumber === NUMBERS[won])!.id);
    expect(lines(lostRow.transcription)).toContain(`Agent: ${BOOKING_LINES.taken} ${offerTimes(next.slots)}`);
  });

  it('the owner\'s CalDAV server stops mid-call: a booking request, the owner told, the message kept, no stall', async () => {
    const { bookings, jobs } = tablesOf(h.server.database.db);
    const radicale = await startRadicale();
    try {
      const { did, userId } = await business();
      const connected = await connectCalDav(h.server.database.db, h.server.services.booking.keys, userId,
        { address: radicale.calendarUrl, username: radicale.user, password: radicale.password }, new Date(), AbortSignal.timeout(30_000), h.server.services.booking.calendarGuard);
      expect(connected.ok).toBe(true);
      const call = await h.call(did);
      await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
      await radicale.stop();
      const ask = await askAgent(h, call, 'Can I book a boiler service on Tuesday morning?');
      await hearsAgent(h, call, ask.endedAt, `${BOOKING_LINES.request} ${BOOKING_LINES.requestDetails}`, QUIET_MS);
      const message = 'This is Sam Jones, please ring me about a boiler service next week.';
      const msg = await askAgent(h, call, message);
      await hearsAgent(h, call, msg.endedAt, AGENT_LINES.messageTaken, QUIET_MS);
      await call.hangUp();

      const row = await h.finishedRow(did, 60_000);
      expect(row).toMatchObject({ status: 'answered', agentStalled: false });
      expect(lines(row.transcription)).toContain(`Caller: ${message}`);
      expect(await h.server.database.db.select().from(bookings).where(eq(bookings.userId, userId))).toEqual([]);
      // The owner is told at once: one job on the booking's own durable kind, once per call.
      const told = await h.server.database.db.select().from(jobs).where(eq(jobs.key, `booking-request-${row.id}`));
      expect(told).toHaveLength(1);
      expect(String((told[0]!.payload as { text: string }).text)).toContain('Not booked: the diary could not be reached.');
    } finally {
      await radicale.stop();
    }
  });
});
