// What the deposit tests share: the real server (its database, caller-texts road and outbox),
// the Stripe double on loopback, an owner with a number, a service and an 'awaiting' booking as
// booking's claim leaves it (F's part), and the deposit service built on them.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect } from 'vitest';
import { DepositService } from '../../../core/payments/deposits/deposit-service.js';
import type { OwnerNews } from '../../../core/ports/owner-news.js';
import { activeCustomer } from '../../helpers/accounts.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { tablesOf } from '../../../core/db/schema.js';
import { bookings, bookingServices } from '../../helpers/tables.js';
import { giveNumber } from '../../caller-texts/helpers.js';
import { startStripeDouble, type StripeDouble, type StripePermission } from '../../doubles/stripe/server.js';

const DID = '+447700900050';
export const CALLER = '+447700900301';
export const OWNER_PHONE = '+447700900123';
export const KEY = 'rk_test_hartley0000000000000000000001';
/** The rights docs/payments.md asks for. */
export const RIGHTS: StripePermission[] = ['rak_checkout_session_write', 'rak_refund_write', 'rak_webhook_write'];
/** Tuesday 8 December 2026, 09:00 London (GMT). */
const NOW = Date.parse('2026-12-08T09:00:00Z');
const START = Date.parse('2026-12-08T10:00:00Z');

export interface World {
  server: TestServer;
  stripe: StripeDouble;
  deposits: DepositService;
  userId: number;
  serviceId: number;
  /** The owner signed in. */
  client: Awaited<ReturnType<typeof activeCustomer>>['client'];
  /** What the deposit side handed the owner-news port (the push alerts' way in, proven in test/push). */
  news: OwnerNews[];
}

async function world(): Promise<World> {
  const server = await startTestServer();
  server.clock.offsetMs = NOW - Date.now();
  const stripe = await startStripeDouble({ now: () => server.services.now() });
  const { user, client } = await activeCustomer(server, { businessName: 'Hartley Plumbing' });
  await giveNumber(server, user.id, DID);
  const [service] = await server.database.db.insert(bookingServices).values({ userId: user.id, name: 'boiler service', durationMinutes: 60, depositKind: 'fixed', depositPence: 2000 }).returning();
  const news: OwnerNews[] = [];
  const deposits = new DepositService({
    db: server.database.db, now: () => server.services.now(), log: server.services.log, sealKey: server.services.booking.keys.seal,
    publicUrl: server.config.publicUrl, apiBase: stripe.url, road: server.services.callerTexts.road, gateway: server.services.callerTexts.gateway,
    ownerNews: (n) => news.push(n),
  });
  return { server, stripe, deposits, userId: user.id, serviceId: service!.id, client, news };
}

async function closeWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  // Every test here fails if the deposit side sent Stripe a POST without its own idempotency key
  // (the double refuses and records it), read before closing so the servers close either way.
  const violations = [...w.stripe.violations];
  w.deposits.stop();
  await w.stripe.close();
  await w.server.close();
  expect(violations).toEqual([]);
}

/**
 * A fresh world before each test of the file, closed after it. Made in a hook (60 s), not inside
 * the test's own 30 s: on a loaded machine a server's start and migrations once used that up.
 */
export function useWorld(): () => World {
  let current: World | undefined;
  beforeEach(async () => {
    current = await world();
  });
  afterEach(async () => {
    const closing = current;
    current = undefined;
    await closeWorld(closing);
  });
  return () => {
    if (!current) throw new Error('No world: call useWorld() at the top of the test file');
    return current;
  };
}

/** The owner's account at the double, connected and tested as the console does it. */
export async function connected(w: World, opts: { refundOnCallerCancel?: boolean; policy?: string } = {}) {
  const account = w.stripe.account({ key: KEY, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
  await w.deposits.save(w.userId, { secretKey: KEY, depositPolicy: opts.policy ?? 'Deposits are refunded if you cancel 24 hours ahead.', refundOnCallerCancel: opts.refundOnCallerCancel ?? true });
  const tested = await w.deposits.test(w.userId);
  if (!('ok' in tested) || !tested.ok) throw new Error(`not connected: ${JSON.stringify(tested)}`);
  return account;
}

/** A booking as booking's claim leaves it: live, awaiting its £20.00 deposit for 30 minutes. */
export async function awaitingBooking(w: World): Promise<number> {
  const now = w.server.services.now();
  const [row] = await w.server.database.db.insert(bookings).values({
    userId: w.userId, serviceId: w.serviceId, startAt: new Date(START), endAt: new Date(START + 3_600_000), blockEndAt: new Date(START + 3_600_000),
    callerName: 'Jo', callerNumber: CALLER, slotKey: `${w.serviceId}:${START}`, depositState: 'awaiting', depositPence: 2000, depositDueAt: new Date(now.getTime() + 30 * 60_000),
  }).returning();
  return row!.id;
}

export async function bookingRow(w: World, id: number) {
  return (await w.server.database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
}

export async function connectionRow(w: World) {
  const { stripeConnections } = tablesOf(w.server.database.db);
  return (await w.server.database.db.select().from(stripeConnections).where(eq(stripeConnections.userId, w.userId)))[0];
}

/** As booking cancels (core/booking/store/bookings.ts cancelBooking): then it calls the desk. */
export async function cancelAs(w: World, id: number, by: 'owner' | 'caller') {
  await w.server.database.db.update(bookings).set({ status: 'cancelled', cancelledBy: by, cancelledAt: w.server.services.now() }).where(eq(bookings.id, id));
  await w.deposits.cancelled(id, by);
}
