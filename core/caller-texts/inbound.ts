import type { OwnerNewsPort } from '../ports/owner-news.js';
import { formatPhone } from '../../contract/phone-display.js';
import { eq } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import type { Db } from '../db/client.js';
import { tablesOf, type User } from '../db/schema.js';
import type { InboundText } from '../followup/inbound-text.js';
import { errorMessage } from '../jobs/retryable.js';
import type { MessageGateway } from '../notify/gateway.js';
import { toSmsText } from '../notify/message.js';
import { planNotification } from '../notify/policy.js';
import { countSms } from '../../contract/sms-segments.js';
import { withoutInvisibles } from '../http/text-hygiene.js';
import { callBackByReply } from '../call-backs-wish/call-reply.js';
import { CALL_REPLY_CONFIRMATION } from '../call-backs-wish/texts.js';
import { isCallWord, optWordOf, startConfirmation, stopConfirmation } from './keywords.js';
import type { CallerTextRoad } from './road.js';
import { optIn, optOut, ownerOfNumber } from './store.js';

export interface CallerInboundDeps {
  db: Db;
  road: CallerTextRoad;
  /** The owner is told of a caller's text on the gateway their summaries use. */
  gateway: MessageGateway;
  log: Pick<Log, 'info' | 'warn'>;
  now: () => Date;
  publicUrl: string;
  bookingReply?: BookingReply;
  /** Push alerts on the owner's devices (core/push), beside the text. */
  ownerNews?: OwnerNewsPort;
}

/**
 * The port booking answers a caller's text through (core/booking reads "C" after a booking text
 * as cancelling their next booking): true when it took the text. Caller texts know nothing more of booking.
 */
export type BookingReply = (userId: number, callerNumber: string, body: string) => Promise<boolean>;

/**
 * A text to a business's number from someone who is not that business's owner: a caller.
 * It lands in the caller's thread; STOP and its kin stop every text from the business to that
 * number (confirmed once), START undoes it; anything else is passed on to the owner as their
 * summaries are. Returns false when the number texted is no business's (the text is then
 * ignored, as before). Its body is stored without direction controls or invisible characters,
 * so nothing hides or reorders what the owner reads. `ownerIds` are the businesses whose owner's phone sent it: a text from
 * an owner to their own number is a command (core/followup), never a caller's.
 */
export async function handleCallerText(deps: CallerInboundDeps, received: InboundText, ownerIds: number[]): Promise<boolean> {
  const { db, log } = deps;
  // Kept as the owner can read it: direction controls and invisible characters removed (issue 53).
  const msg = { ...received, body: withoutInvisibles(received.body) };
  const { callerTexts, users } = tablesOf(db);
  if (!msg.from || msg.channel !== 'sms') return false;
  const userId = await ownerOfNumber(db, msg.to);
  if (userId === null || ownerIds.includes(userId)) return false;
  const owner = (await db.select().from(users).where(eq(users.id, userId)).limit(1))[0];
  if (!owner) return false;
  const now = deps.now();
  await db.insert(callerTexts).values({
    userId, callerNumber: msg.from, kind: 'caller', status: 'received', body: msg.body, segments: Math.max(1, countSms(msg.body).segments),
    key: `in:${msg.messageSid}`, createdAt: now, updatedAt: now,
  }).onConflictDoNothing();
  // "C" after a booking text cancels that booking (the owner is told by booking); STOP/START are untouched.
  if (deps.bookingReply && (await deps.bookingReply(userId, msg.from, msg.body))) {
    log.info({ userId, messageSid: msg.messageSid }, 'a caller cancelled their booking by text');
    return true;
  }
  const opt = optWordOf(msg.body);
  if (opt?.kind === 'stop' && (await optOut(db, userId, msg.from, opt.word, now))) {
    log.info({ userId, messageSid: msg.messageSid }, 'a caller stopped texts');
    await deps.road.send({ userId, to: msg.from, from: msg.to, kind: 'stop', body: stopConfirmation(owner.businessName), key: `stop:${msg.messageSid}`, retry: false });
  } else if (opt?.kind === 'start' && (await optIn(db, userId, msg.from))) {
    log.info({ userId, messageSid: msg.messageSid }, 'a caller asked for texts again');
    await deps.road.send({ userId, to: msg.from, from: msg.to, kind: 'start', body: startConfirmation(owner.businessName), key: `start:${msg.messageSid}`, retry: false });
  } else if (!opt) {
    // CALL to the missed-call text (issue 56): a call-back wish when the agent rings back;
    // the owner is told either way, so they may ring first.
    if (isCallWord(msg.body) && (await callBackByReply(db, userId, msg.from, now))) {
      log.info({ userId, messageSid: msg.messageSid }, 'a caller asked to be rung back by text');
      await deps.road.send({ userId, to: msg.from, from: msg.to, kind: 'call-back', body: CALL_REPLY_CONFIRMATION, key: `call-back:${msg.messageSid}`, retry: false });
    }
    await tellOwner(deps, owner, msg);
  }
  return true;
}

/** The owner's text about a caller's text, like a summary: once, not retried (the thread has it). */
async function tellOwner(deps: CallerInboundDeps, owner: User, msg: InboundText): Promise<void> {
  const thread = `/dashboard/texts?caller=${encodeURIComponent(msg.from!)}`;
  deps.ownerNews?.({ userId: owner.id, event: `caller-in-${msg.messageSid}`, kind: 'caller-text', staffId: null, title: `Text from ${formatPhone(msg.from)}`, body: msg.body, url: thread, callerNumber: msg.from });
  const plan = planNotification(owner);
  if (plan.kind !== 'send') return;
  const { notifications } = tablesOf(deps.db);
  const link = new URL(`/dashboard/texts?caller=${encodeURIComponent(msg.from!)}`, deps.publicUrl).toString();
  const words = msg.body.length > 300 ? `${msg.body.slice(0, 297)}...` : msg.body;
  const body = toSmsText(`Text from ${msg.from}: "${words}" Answer in the console: ${link}`);
  const channel = plan.channels[0]!;
  const intent = (await deps.db.insert(notifications)
    .values({ userId: owner.id, channel, kind: 'caller-text', to: plan.to, body, status: 'sending' })
    .returning({ id: notifications.id }))[0]!;
  try {
    const { providerId } = await deps.gateway.send({ channel, to: plan.to, businessNumber: msg.to, body, key: `caller-in-${msg.messageSid}` });
    await deps.db.update(notifications).set({ status: 'sent', providerId }).where(eq(notifications.id, intent.id));
  } catch (err) {
    const error = errorMessage(err);
    await deps.db.update(notifications).set({ status: 'failed', error }).where(eq(notifications.id, intent.id));
    deps.log.warn({ userId: owner.id, messageSid: msg.messageSid, err: error }, 'owner not told of a caller\'s text');
  }
}
