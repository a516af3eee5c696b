import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { Log } from '../../../contract/log.js';
import type { ApiStripeConnection, ApiStripeConnectionUpdate, ApiStripeTest } from '../../../contract/payments.js';
import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import type { Db } from '../../db/client.js';
import type { BookingRow } from '../../db/schema.js';
import type { OwnerNewsPort } from '../../ports/owner-news.js';
import { seal, unseal } from '../../booking/calendars/secret-box.js';
import { businessName } from '../../booking/store/business-name.js';
import { ownerToTell, recordOwnerNotice, settleOwnerNotice } from '../../booking/store/owner-notices.js';
import { ownerDid } from '../../call-handling/store.js';
import type { CallerTextRoad } from '../../caller-texts/road.js';
import { errorMessage } from '../../logging/safe-errors.js';
import type { MessageGateway } from '../../notify/gateway.js';
import { toSmsText } from '../../notify/message.js';
import { planNotification } from '../../notify/policy.js';
import { shortWhen } from '../../../dialogue/language/dates.js';
import { DepositUnavailable, type DepositDesk, type StripeEventHandlers } from '../parts.js';
import * as store from './booking-deposits.js';
import { awaitingCount, connectionRow, connectionView, deleteConnection, markTested, saveConnection, type ConnectionRow } from './connection-store.js';
import { depositGateway, type DepositGateway } from './gateway.js';
import { depositMovedOn, isLiveKey, passes, sessionExpiry, settlementOf, testedWords, troubleOf, troubleWords, type DepositRight } from './rules.js';
import { keptText, ownerLatePaymentNote, ownerPaidNote, ownerReleasedNote, paidText, payLinkText, refundedText, releasedText, type DepositTextFacts } from './texts.js';

// Deposits (issue 59, docs/payments.md "For owners: deposits"): the owner's connection, the pay
// link, the events from the owner's account and the hold's end. The booking row is the truth:
// every move is a guarded UPDATE (booking-deposits.ts), and every Stripe call carries an
// idempotency key from the booking's id (gateway.ts).

export interface DepositDeps {
  db: Db;
  now: () => Date;
  log: Pick<Log, 'info' | 'warn'>;
  /** Booking's seal key (core/booking/calendars/keys.ts): the key is sealed as the CalDAV password is. */
  sealKey: Buffer;
  publicUrl: string;
  /** STRIPE_API_BASE: a double on loopback in tests. */
  apiBase?: string;
  /** The caller texts go on the one road (STOP, UK mobiles, once per key). */
  road: CallerTextRoad;
  /** The owner told (a release, a late payment), as booking tells them. */
  gateway: MessageGateway;
  /** A deposit paid is a booking made: the owner's devices that take bookings are alerted (issue 54). */
  ownerNews?: OwnerNewsPort;
}

/** How often the hold's end is looked for: a due hold is released within a minute, and a Stripe outage retried each minute. */
const HOLD_SWEEP_MS = 60_000;

type CallerWhat = 'link' | 'paid' | 'released' | 'refunded' | 'kept';
/** One key per text and booking: the road sends each once, whatever repeats an event makes. */
const depositTextKey = (what: CallerWhat, bookingId: number) => `deposit-text:${what}:${bookingId}`;

export class DepositService implements DepositDesk {
  /** The webhook intake's handler for events from an owner's account. */
  readonly handlers: Pick<StripeEventHandlers, 'deposits'> = { deposits: (userId, event) => this.onEvent(userId, event) };
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: DepositDeps) {}

  // ---- The connection ----

  async view(userId: number): Promise<ApiStripeConnection> {
    return connectionView(await connectionRow(this.deps.db, userId), this.deps.sealKey);
  }

  /** Saves the key (untested until "Test connection"), the policy and refundOnCallerCancel. */
  async save(userId: number, body: ApiStripeConnectionUpdate): Promise<ApiStripeConnection | { refused: string }> {
    const existing = await connectionRow(this.deps.db, userId);
    if (!existing && body.secretKey === undefined) return { refused: 'Paste your Stripe restricted key first.' };
    // A new key on another account: the old endpoint (on the old key's account) is removed by a test's remake.
    await saveConnection(this.deps.db, this.deps.sealKey, userId, body, body.secretKey ? isLiveKey(body.secretKey) : undefined, this.deps.now());
    return this.view(userId);
  }

  /** "Test connection": each right the box needs, the webhook endpoint made when missing, in plain words. */
  async test(userId: number): Promise<ApiStripeTest | { refused: string }> {
    const row = await connectionRow(this.deps.db, userId);
    if (!row) return { refused: 'Paste your Stripe restricted key first.' };
    const key = this.keyOf(row);
    if (!key) return { refused: 'Your saved Stripe key can no longer be read (the box\'s secret changed): paste it again.' };
    const stripe = this.gatewayFor(key);
    const step = async <T>(right: DepositRight | undefined, call: () => Promise<T>): Promise<T> => {
      try {
        return await call();
      } catch (err) {
        throw new TestFailed(troubleWords(troubleOf(err, right)));
      }
    };
    try {
      const label = await step(undefined, () => stripe.accountName().catch((err: unknown) => {
        // Reading the account's name is not a right the box needs: a key without it still works.
        if (troubleOf(err).kind === 'missing-right') return null;
        throw err;
      }));
      const tag = `${userId}:${this.deps.now().getTime()}`;
      await step('checkout', () => stripe.probe('checkout', tag));
      await step('refunds', () => stripe.probe('refunds', tag));
      const endpoint = await step('webhooks', () => this.ensureWebhook(stripe, row, userId));
      await markTested(this.deps.db, userId, { accountLabel: label, webhookEndpointId: endpoint.id, webhookSecretSealed: endpoint.secret ? seal(this.deps.sealKey, endpoint.secret) : null }, this.deps.now());
      const connection = await this.view(userId);
      return { ok: true, message: testedWords(label, row.livemode, connection.fullKey), connection };
    } catch (err) {
      if (!(err instanceof TestFailed)) throw err;
      return { ok: false, message: err.message, connection: await this.view(userId) };
    }
  }

  /** The endpoint this key's account has, or a new one (its signing secret is only shown at creation). */
  private async ensureWebhook(stripe: DepositGateway, row: ConnectionRow, userId: number): Promise<Stripe.WebhookEndpoint> {
    const url = new URL(PAYMENT_ROUTES.depositsWebhook(userId), this.deps.publicUrl).toString();
    if (row.webhookEndpointId && row.webhookSecretSealed) {
      // Absent: another account's endpoint (a new key) or one deleted in the dashboard; this account gets its own.
      const found = await stripe.findWebhook(row.webhookEndpointId);
      if (found?.url === url && found.status === 'enabled') return found;
    }
    const keyTag = createHash('sha256').update(row.secretKeySealed).digest('hex').slice(0, 16);
    return stripe.createWebhook(url, userId, keyTag);
  }

  /** Disconnect: refused while a pay link is out; the box's endpoint is deleted at Stripe when it can be. */
  async disconnect(userId: number): Promise<ApiStripeConnection | { refused: string }> {
    const waiting = await awaitingCount(this.deps.db, userId);
    if (waiting) return { refused: `${waiting === 1 ? 'A booking is' : `${waiting} bookings are`} waiting for a deposit. Disconnect Stripe once ${waiting === 1 ? 'it is' : 'they are'} paid or released.` };
    const row = await connectionRow(this.deps.db, userId);
    const key = row && this.keyOf(row);
    if (row?.webhookEndpointId && key) {
      try {
        await this.gatewayFor(key).deleteWebhook(row.webhookEndpointId);
      } catch (err) {
        // The key revoked or Stripe down: the endpoint stays on the owner's account, and its events are refused here (no connection).
        this.deps.log.warn({ userId, err: troubleOf(err).kind }, 'deposit webhook endpoint not deleted at Stripe');
      }
    }
    await deleteConnection(this.deps.db, userId);
    return this.view(userId);
  }

  private keyOf(row: ConnectionRow): string | null {
    try {
      return unseal(this.deps.sealKey, row.secretKeySealed);
    } catch {
      return null;
    }
  }

  private gatewayFor(key: string): DepositGateway {
    return depositGateway(key, this.deps.apiBase);
  }

  /** The owner's gateway and policy; null when not connected (no row, untested, or the key unreadable). */
  private async account(userId: number): Promise<{ stripe: DepositGateway; row: ConnectionRow } | null> {
    const row = await connectionRow(this.deps.db, userId);
    const key = row?.testedAt ? this.keyOf(row) : null;
    return row && key ? { stripe: this.gatewayFor(key), row } : null;
  }

  // ---- DepositDesk ----

  async connected(userId: number): Promise<boolean> {
    return (await this.account(userId)) !== null;
  }

  async startHold(bookingId: number, signal?: AbortSignal): Promise<{ url: string; dueAt: Date; stands: boolean }> {
    const b = await store.bookingById(this.deps.db, bookingId);
    if (!b || b.depositState !== 'awaiting' || b.depositPence === null || b.depositDueAt === null) throw new DepositUnavailable('the booking is not waiting for a deposit');
    // A repeat: the first call decided, and a hold it gave up is no longer awaiting.
    if (b.depositSessionId && b.depositUrl) return { url: b.depositUrl, dueAt: b.depositDueAt, stands: true };
    const acct = await this.account(b.userId);
    if (!acct) throw new DepositUnavailable('Stripe is not connected');
    const facts = await this.facts(b);
    let session: Stripe.Checkout.Session;
    try {
      session = await acct.stripe.createCheckout({
        bookingId: b.id, userId: b.userId, pence: b.depositPence, expiresAt: sessionExpiry(b.depositDueAt, this.deps.now()),
        description: `${facts.service}, ${shortWhen(b.startAt)}`, publicUrl: this.deps.publicUrl,
      });
    } catch (err) {
      throw new DepositUnavailable(troubleWords(troubleOf(err, 'checkout')));
    }
    if (!session.url) throw new DepositUnavailable('Stripe made no payment page');
    // The booking released or cancelled meanwhile: the session is left to expire by itself.
    if (!(await store.setSession(this.deps.db, b.id, session.id, session.url))) throw new DepositUnavailable('the booking stopped waiting for a deposit');
    // The one moment the asker's bound decides (parts.ts, DepositDesk.startHold): given up before
    // the text, no link for them and booking releases the hold and its session (diary.ts); once the
    // text is handed over, the hold stands, whenever the bound passes.
    if (signal?.aborted) return { url: session.url, dueAt: b.depositDueAt, stands: false };
    await this.textCaller(b, 'link', payLinkText(facts, b.depositDueAt, this.deps.now(), session.url));
    return { url: session.url, dueAt: b.depositDueAt, stands: true };
  }

  async cancelled(bookingId: number, _by: 'owner' | 'caller'): Promise<void> {
    // Who cancelled is on the row (cancelled_by); the sweep settles the same way when Stripe fails here.
    const b = await store.bookingById(this.deps.db, bookingId);
    if (b) await this.settle(b);
  }

  /**
   * A cancelled booking's deposit: a link still out is expired at Stripe (a session already paid
   * is refunded); a paid one refunded or kept. A Stripe failure leaves it for the next sweep.
   */
  private async settle(b: BookingRow): Promise<void> {
    if (b.status !== 'cancelled' || depositMovedOn(b)) return;
    const acct = await this.account(b.userId);
    if (!acct) return;
    try {
      if (b.depositState === 'awaiting') {
        const session = b.depositSessionId ? await this.expireOrRead(acct.stripe, b) : null;
        if (session?.payment_status === 'paid') await this.latePayment(b.id, session);
        else await store.markUnpaidCancelled(this.deps.db, b.id);
        return;
      }
      if (b.depositState !== 'paid') return;
      if (settlementOf(b.cancelledBy, acct.row.refundOnCallerCancel) === 'keep') {
        const kept = await store.markSettled(this.deps.db, b.id, 'kept');
        if (kept) await this.textCaller(kept, 'kept', keptText(await this.facts(kept)));
        return;
      }
      if (b.depositPaymentIntent) await acct.stripe.refund(b.depositPaymentIntent, b.id);
      const refunded = await store.markSettled(this.deps.db, b.id, 'refunded');
      if (refunded) await this.textCaller(refunded, 'refunded', refundedText(await this.facts(refunded)));
    } catch (err) {
      const t = troubleOf(err, 'refunds');
      this.deps.log.warn({ bookingId: b.id, trouble: t.kind }, passes(t) ? 'deposit not settled yet: Stripe unreachable, tried again on the next sweep' : 'deposit not settled: Stripe refused');
    }
  }

  /** Expires the session; Stripe refuses for one already complete, which is then read as it is. */
  private async expireOrRead(stripe: DepositGateway, b: BookingRow): Promise<Stripe.Checkout.Session> {
    try {
      return await stripe.expire(b.depositSessionId!, b.id);
    } catch (err) {
      if (troubleOf(err).kind !== 'refused') throw err;
      return stripe.retrieve(b.depositSessionId!);
    }
  }

  // ---- Events from the owner's account ----

  private async onEvent(userId: number, event: Stripe.Event): Promise<void> {
    if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded' && event.type !== 'checkout.session.expired') return;
    const sent = event.data.object;
    // Found by its session, not the metadata's booking_id: a move carries the session to a new
    // booking while Stripe's copy still names the old one. Only this owner's booking counts.
    const b = await store.bookingBySession(this.deps.db, sent.id);
    if (!b || b.userId !== userId) return;
    const acct = await this.account(userId);
    // The session as Stripe has it now, so the order events arrive in does not matter.
    const session = acct ? await acct.stripe.retrieve(sent.id) : sent;
    if (session.payment_status === 'paid') await this.paid(b, session);
    else if (session.status === 'expired') await this.release(b);
  }

  private async paid(b: BookingRow, session: Stripe.Checkout.Session): Promise<void> {
    const pi = paymentIntentOf(session);
    const done = await store.markPaid(this.deps.db, b.id, pi);
    if (done) {
      const acct = await connectionRow(this.deps.db, b.userId);
      const facts = await this.facts(done);
      await this.textCaller(done, 'paid', paidText(facts, acct?.depositPolicy ?? null));
      // A held booking alerts no one when it is made; paid, it is one the owner will want to know of.
      this.deps.ownerNews?.({ userId: done.userId, event: `booking-paid-${done.id}`, kind: 'booking', staffId: done.staffId, title: 'Bookings', body: ownerPaidNote({ ...facts, callerName: done.callerName, callerNumber: done.callerNumber }), url: '/dashboard/bookings', callerNumber: done.callerNumber });
      return;
    }
    await this.latePayment(b.id, session);
  }

  /** Paid after the hold was released or the booking cancelled: refunded, and the owner told (the slot may be gone). */
  private async latePayment(bookingId: number, session: Stripe.Checkout.Session): Promise<void> {
    const late = await store.markLatePaid(this.deps.db, bookingId, paymentIntentOf(session));
    if (!late) return;
    const facts = await this.facts(late);
    if (late.cancelledBy === 'unpaid') await this.tellOwner(late.userId, ownerLatePaymentNote({ ...facts, callerName: late.callerName, callerNumber: late.callerNumber }));
    await this.settle(late);
  }

  // ---- The hold's end ----

  /** Runs the sweep every HOLD_SWEEP_MS until stop(). */
  start(): void {
    this.timer ??= setInterval(() => void this.sweep().catch((err: unknown) => this.deps.log.warn({ err: errorMessage(err) }, 'deposit sweep failed')), HOLD_SWEEP_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Holds past deposit_due_at are expired at Stripe first (a session already complete is paid
   * instead), then released; Stripe unreachable leaves the hold for the next sweep, never
   * released blind. Then cancelled bookings whose deposit a failed call left unsettled.
   */
  async sweep(): Promise<void> {
    for (const b of await store.dueHolds(this.deps.db, this.deps.now())) await this.endHold(b);
    for (const b of await store.unsettled(this.deps.db)) await this.settle(b);
  }

  private async endHold(b: BookingRow): Promise<void> {
    const acct = await this.account(b.userId);
    if (b.depositSessionId) {
      // Without the connection the session cannot be asked about: the hold waits (disconnect is refused while one is out).
      if (!acct) return;
      let session: Stripe.Checkout.Session;
      try {
        session = await this.expireOrRead(acct.stripe, b);
      } catch (err) {
        this.deps.log.warn({ bookingId: b.id, trouble: troubleOf(err).kind }, 'deposit hold not ended: Stripe could not be asked; tried again on the next sweep');
        return;
      }
      if (session.payment_status === 'paid') return this.paid(b, session);
    }
    await this.release(b);
  }

  private async release(b: BookingRow): Promise<void> {
    const gone = await store.markReleased(this.deps.db, b.id, this.deps.now());
    if (!gone) return;
    const facts = await this.facts(gone);
    await this.textCaller(gone, 'released', releasedText(facts));
    await this.tellOwner(gone.userId, ownerReleasedNote({ ...facts, callerName: gone.callerName, callerNumber: gone.callerNumber }));
  }

  // ---- Texts ----

  private async facts(b: BookingRow): Promise<DepositTextFacts> {
    return { business: await businessName(this.deps.db, b.userId), service: await store.serviceName(this.deps.db, b.serviceId), start: b.startAt, pence: b.depositPence ?? 0 };
  }

  private async textCaller(b: BookingRow, what: CallerWhat, body: string): Promise<void> {
    const from = await ownerDid(this.deps.db, b.userId);
    if (!from) {
      this.deps.log.warn({ bookingId: b.id }, 'deposit text not sent: the owner has no number to send from');
      return;
    }
    const r = await this.deps.road.send({ userId: b.userId, to: b.callerNumber, from, kind: 'deposit', body, key: depositTextKey(what, b.id), callId: b.callId, retry: false });
    if (r.outcome === 'refused') this.deps.log.warn({ bookingId: b.id, reason: r.reason }, 'deposit text not sent');
  }

  /** A text to the owner on the channel their summaries use, as booking tells them. */
  private async tellOwner(ownerId: number, text: string): Promise<void> {
    const owner = await ownerToTell(this.deps.db, ownerId);
    if (!owner) return;
    const plan = planNotification(owner);
    if (plan.kind !== 'send') return;
    const channel = plan.channels[0]!;
    const body = toSmsText(text);
    const notice = await recordOwnerNotice(this.deps.db, { ownerId, channel, to: plan.to, body });
    try {
      const from = (await ownerDid(this.deps.db, ownerId)) ?? plan.to;
      const { providerId } = await this.deps.gateway.send({ channel, to: plan.to, businessNumber: from, body, key: `deposit-owner:${notice}` });
      await settleOwnerNotice(this.deps.db, notice, { status: 'sent', providerId });
    } catch (err) {
      await settleOwnerNotice(this.deps.db, notice, { status: 'failed', error: errorMessage(err) });
      this.deps.log.warn({ userId: ownerId, err: errorMessage(err) }, 'owner not told about a deposit');
    }
  }
}

class TestFailed extends Error {}

function paymentIntentOf(s: Stripe.Checkout.Session): string | null {
  return typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null);
}
