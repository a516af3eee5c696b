import { eq } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import type { Db } from '../db/client.js';
import { tablesOf, type User } from '../db/schema.js';
import type { Channel, MessageGateway } from '../notify/gateway.js';
import { toSmsText } from '../notify/message.js';
import { errorMessage } from '../jobs/retryable.js';
import { parseCommand } from './commands.js';
import { runOwnerCommand } from './run-command.js';
import { chooseBusiness } from './which-business.js';
import { sendersForNumber } from './senders.js';

export interface InboundTextDeps {
  db: Db;
  gateway: MessageGateway;
  log: Pick<Log, 'info' | 'warn'>;
  now: () => Date;
  settingsChanged: Array<(userId: number) => void>;
  /** Whether this owner's account may act (the same rule as signing in). */
  canAct: (u: User) => boolean;
  /**
   * A text to a business's number from anyone but that business's owner: a caller's, for their
   * thread (core/caller-texts/inbound.ts). Resolves false when it is not one (ignored as before).
   */
  callerText?: (msg: InboundText, ownerIds: number[]) => Promise<boolean>;
}

export interface InboundText {
  messageSid: string;
  channel: Channel;
  /** The sender in E.164, or null when it is not a phone number (a short code, a name). */
  from: string | null;
  /** The number the text was sent to (ours), E.164 without any channel prefix. */
  to: string;
  body: string;
}

export type InboundOutcome = 'replayed' | 'ignored' | 'handled' | 'asked' | 'caller';

/**
 * One text that reached the webhook. The MessageSid is claimed first (a unique row), so a
 * webhook Twilio delivers again is not acted on twice. A text from any number that is neither an
 * owner's notification number nor a team member's confirmed phone (senders.ts) is ignored and
 * logged by its id only; a member's acts within their business and their rights (run-command.ts).
 */
export async function handleOwnerText(deps: InboundTextDeps, msg: InboundText): Promise<InboundOutcome> {
  const { db, log } = deps;
  const { inboundMessages } = tablesOf(db);
  const claimed = await db
    .insert(inboundMessages)
    .values({ messageSid: msg.messageSid, channel: msg.channel })
    .onConflictDoNothing()
    .returning({ id: inboundMessages.id });
  const row = claimed[0];
  if (!row) {
    log.info({ messageSid: msg.messageSid }, 'text delivered again (same message id): already handled');
    return 'replayed';
  }
  const found = msg.from ? await sendersForNumber(db, msg.from, msg.to, deps.canAct) : [];
  // A text from the business's own owner or team to its number is a command, never a caller's.
  if (deps.callerText && (await deps.callerText(msg, found.map((s) => s.businessId)))) {
    await db.update(inboundMessages).set({ outcome: 'caller text' }).where(eq(inboundMessages.id, row.id));
    return 'caller';
  }
  let sender = found.length === 1 ? found[0]! : null;
  let body = msg.body;
  if (found.length > 1) {
    // Several businesses send their notifications to this phone: the text must say which.
    const choice = chooseBusiness(found.map((s) => s.owner), msg.body);
    if (choice.kind === 'ask') {
      await db.update(inboundMessages).set({ outcome: 'asked which business' }).where(eq(inboundMessages.id, row.id));
      log.info({ messageSid: msg.messageSid, businesses: found.length }, 'text from a number several businesses share: asked which one');
      await askWhichBusiness(deps, msg, choice.question);
      return 'asked';
    }
    sender = found.find((s) => s.businessId === choice.id)!;
    body = choice.body;
  }
  if (!sender) {
    await db.update(inboundMessages).set({ outcome: 'ignored: not an owner' }).where(eq(inboundMessages.id, row.id));
    log.info({ messageSid: msg.messageSid }, 'text from a number that is no owner\'s notification number: ignored');
    return 'ignored';
  }
  const { owner, member } = sender;
  const command = parseCommand(body);
  const result = await runOwnerCommand(db, owner, command, deps.now(), member);
  await db.update(inboundMessages)
    .set({ userId: owner.id, command: command.kind, outcome: result.outcome })
    .where(eq(inboundMessages.id, row.id));
  if (result.settingsChanged) for (const listener of deps.settingsChanged) listener(owner.id);
  log.info({ messageSid: msg.messageSid, userId: owner.id, staffId: member?.id ?? null, command: command.kind, outcome: result.outcome }, member ? 'team member command by text' : 'owner command by text');
  await sendReply(deps, owner, msg, result.reply, result.callId);
  return 'handled';
}

/** The question back to a shared phone; no business is named as its sender, so no notification row. */
async function askWhichBusiness(deps: InboundTextDeps, msg: InboundText, question: string): Promise<void> {
  try {
    await deps.gateway.send({ channel: msg.channel, to: msg.from!, businessNumber: msg.to, body: toSmsText(question), key: `reply-${msg.messageSid}` });
  } catch (err) {
    deps.log.warn({ messageSid: msg.messageSid, err: errorMessage(err) }, 'question to a shared number not sent');
  }
}

/**
 * The answer goes back on the channel it came by, from the number it was sent to, through the
 * same gateway as summaries (the outbox folder without Twilio), as a `reply` notification row.
 * It is not retried: a reply that arrives much later only confuses, and the owner can ask again.
 */
async function sendReply(deps: InboundTextDeps, owner: User, msg: InboundText, body: string, callId: number | null): Promise<void> {
  const { db } = deps;
  const { notifications } = tablesOf(db);
  const text = toSmsText(body);
  const intent = (await db
    .insert(notifications)
    .values({ callId, userId: owner.id, channel: msg.channel, kind: 'reply', to: msg.from!, body: text, status: 'sending' })
    .returning({ id: notifications.id }))[0]!;
  try {
    const { providerId } = await deps.gateway.send({ channel: msg.channel, to: msg.from!, businessNumber: msg.to, body: text, key: `reply-${msg.messageSid}` });
    await db.update(notifications).set({ status: 'sent', providerId }).where(eq(notifications.id, intent.id));
  } catch (err) {
    const error = errorMessage(err);
    await db.update(notifications).set({ status: 'failed', error }).where(eq(notifications.id, intent.id));
    deps.log.warn({ messageSid: msg.messageSid, userId: owner.id, err: error }, 'reply to an owner command not sent');
  }
}
