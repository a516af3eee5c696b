import { and, asc, eq, notInArray, type SQL } from 'drizzle-orm';
import { retryWhileBusy, type Db } from '../db/client.js';
import { tablesOf, type Call, type User } from '../db/schema.js';
import { isMailRetryable, type Mailer } from '../mail/mailer.js';
import { callSummaryMail } from '../mail/summary-mail.js';
import type { Brand } from '../mail/templates.js';
import { isRetryable, errorMessage } from '../jobs/retryable.js';
import type { Channel, MessageGateway, OutgoingMessage } from './gateway.js';
import { planNotification } from './policy.js';
import { forPerson } from './message.js';
import { recipientsForCall } from './recipients-for-call.js';
import { transaction } from '../db/transaction.js';
import type { TextVerdict } from '../push/service.js';

/** What the notifier needs of push alerts (core/push/service.ts). */
export interface PushChannel {
  alertCall(call: Call): Promise<TextVerdict>;
}

const CHANNEL_LABEL: Record<Channel, string> = { sms: 'SMS', whatsapp: 'WhatsApp' };

/** summary: the call's one text (its state shows on the call); the others are extra texts about it. */
export type NotificationKind = 'summary' | 'repeat-caller' | 'reminder';

/** The gateway key: the summary's is unchanged from before kinds existed, so old outbox files still reconcile. */
const keyFor = (callId: number, channel: Channel, kind: NotificationKind) =>
  kind === 'summary' ? `call-${callId}-${channel}` : `call-${callId}-${channel}-${kind}`;

/** The e-mail channel's means: off when a notifier is built without them. */
export interface MailChannel {
  mailer: Mailer;
  brand: Brand;
}

/**
 * Sends a call's notification at most once per channel, keeping one `notifications` row per
 * attempt. The row is written as 'sending' before the provider is called and settled after,
 * so a crash in between leaves a visible intent: the next run asks the gateway whether that
 * message went out (the outbox looks for its file, Twilio lists recent messages to the
 * number) and only sends when it surely did not. When the gateway cannot tell, it does not
 * resend: a missing text is reported on the call, a duplicate could not be taken back.
 *
 * E-mail is the third channel, for the summary only (alerts and reminders are texts), when the
 * owner switched it on: same rows (channel 'email'), same once-only rule. An SMTP relay cannot
 * be asked afterwards whether it took a message, so an e-mail interrupted mid-send is never
 * resent.
 */
export class CallNotifier {
  constructor(
    private readonly db: Db,
    private readonly gateway: MessageGateway,
    private readonly mail?: MailChannel,
    /** The summary's push alerts (core/push): sent beside the texts, and may hold the owner's texts back. */
    private readonly push?: PushChannel,
  ) {}

  /**
   * Throws a retryable error when a channel should be tried again later; permanent failures are
   * recorded and swallowed. The owner is texted on their channels as ever unless the call is a
   * team member's (core/team/recipients.ts): then the member gets it by SMS on their confirmed
   * phone, and the owner a copy naming them only when they asked for one.
   */
  async notify(call: Call, owner: User, body: string, kind: NotificationKind = 'summary'): Promise<void> {
    // The call's notification state describes its summary; an alert's problems are in its rows.
    const onCall = kind === 'summary';
    const recipients = await recipientsForCall(this.db, call, owner, onCall);
    const memberPhones = recipients.members.map((m) => m.phone);
    const texts = onCall ? await this.pushFirst(call) : 'text';
    let retry: unknown = null;
    if (recipients.owner) {
      const ownerBody = recipients.owner.forName ? forPerson(body, recipients.owner.forName) : body;
      retry = await this.notifyOwner(call, owner, ownerBody, kind, memberPhones, texts === 'text');
    } else if (onCall && recipients.members.length) {
      await this.reportOnCall(call.id, null);
    }
    for (const m of recipients.members) {
      try {
        const msg: OutgoingMessage = { channel: 'sms', to: m.phone, businessNumber: call.toNumber, body, key: `${keyFor(call.id, 'sms', kind)}-staff-${m.staffId}` };
        await this.notifyChannel(call, owner, kind, msg, { recipient: eq(tablesOf(this.db).notifications.to, m.phone), label: `SMS to ${m.name}` });
      } catch (err) {
        if (isRetryable(err)) retry ??= err;
      }
    }
    if (retry) throw retry;
  }

  /** The owner's texts and e-mail; a member's texts to the same call are the rows sent to `memberPhones`. Returns the first retryable failure. */
  /**
   * The summary's push alerts, queued before any text; what comes back says whether the owner's
   * texts go now. A push that cannot even be queued never holds a text back.
   */
  private async pushFirst(call: Call): Promise<TextVerdict> {
    if (!this.push) return 'text';
    try {
      return await this.push.alertCall(call);
    } catch {
      return 'text';
    }
  }

  private async notifyOwner(call: Call, owner: User, body: string, kind: NotificationKind, memberPhones: string[], textNow = true): Promise<unknown> {
    const { notifications } = tablesOf(this.db);
    const plan = planNotification(owner);
    const onCall = kind === 'summary';
    const byEmail = onCall && !!this.mail && owner.emailSummariesEnabled;
    if (plan.kind === 'unreachable') {
      if (onCall) await this.reportOnCall(call.id, plan.problem);
    } else if (onCall && (plan.kind === 'send' || byEmail)) {
      await this.reportOnCall(call.id, null);
    }
    let retry: unknown = null;
    // Held while the owner's push may still be opened (a job sends them when the wait is over).
    if (plan.kind === 'send' && textNow) {
      const recipient = memberPhones.length ? notInArray(notifications.to, memberPhones) : undefined;
      for (const channel of plan.channels) {
        try {
          await this.notifyChannel(call, owner, kind, { channel, to: plan.to, businessNumber: call.toNumber, body, key: keyFor(call.id, channel, kind) }, { recipient });
        } catch (err) {
          if (isRetryable(err)) retry ??= err;
        }
      }
    }
    if (byEmail) {
      try {
        await this.notifyByEmail(call, owner, this.mail!);
      } catch (err) {
        if (isMailRetryable(err)) retry ??= err;
      }
    }
    return retry;
  }

  /** `who.recipient` picks this recipient's rows among the call's; `who.label` names the channel (and person) in a problem shown on the call. */
  private async notifyChannel(call: Call, owner: User, kind: NotificationKind, msg: OutgoingMessage, who: { recipient?: SQL; label?: string }): Promise<void> {
    const { notifications } = tablesOf(this.db);
    const onCall = kind === 'summary';
    const label = who.label ?? CHANNEL_LABEL[msg.channel];
    const attempts = await this.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.callId, call.id), eq(notifications.channel, msg.channel), eq(notifications.kind, kind), who.recipient))
      .orderBy(asc(notifications.id));
    if (attempts.some((a) => a.status === 'sent')) return;

    const interrupted = attempts.find((a) => a.status === 'sending');
    if (interrupted) {
      const found = await this.gateway.reconcile({ ...msg, to: interrupted.to, body: interrupted.body }, interrupted.createdAt);
      if (found === 'unknown') {
        const why = 'the appliance stopped while this message was being sent and the provider cannot say whether it went out; it was not resent to avoid a duplicate';
        await this.settle(interrupted.id, call.id, onCall, { status: 'failed', error: why });
        return onCall ? this.reportOnCall(call.id, `${label}: ${why}`) : undefined;
      }
      if (found.sent) return this.settle(interrupted.id, call.id, onCall, { status: 'sent', providerId: found.providerId });
      await this.settle(interrupted.id, call.id, onCall, { status: 'failed', error: 'not delivered: the appliance stopped before the provider took the message' });
    }

    const [intent] = await this.db
      .insert(notifications)
      .values({ callId: call.id, userId: owner.id, channel: msg.channel, kind, to: msg.to, body: msg.body, status: 'sending' })
      .returning({ id: notifications.id });
    let providerId: string;
    try {
      ({ providerId } = await this.gateway.send(msg));
    } catch (err) {
      const error = errorMessage(err);
      await this.settle(intent!.id, call.id, onCall, { status: 'failed', error });
      if (onCall) await this.reportOnCall(call.id, `${label}: ${error}`);
      throw err;
    }
    // Outside the try: the provider has the message, so a refused write (the database
    // locked by a backup) must never be recorded as a failed send and sent again. It is
    // retried until it lands; if the process dies first, the 'sending' row makes the next
    // run ask the provider instead of sending.
    await retryWhileBusy(this.db, 'record a sent notification', () => this.settle(intent!.id, call.id, onCall, { status: 'sent', providerId }));
  }

  private async notifyByEmail(call: Call, owner: User, mail: MailChannel): Promise<void> {
    const { notifications } = tablesOf(this.db);
    const attempts = await this.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.callId, call.id), eq(notifications.channel, 'email'), eq(notifications.kind, 'summary')));
    if (attempts.some((a) => a.status === 'sent')) return;
    const interrupted = attempts.find((a) => a.status === 'sending');
    if (interrupted) {
      const why = 'the appliance stopped while this e-mail was being sent and the mail relay cannot say whether it went out; it was not resent to avoid a duplicate';
      await this.settle(interrupted.id, call.id, true, { status: 'failed', error: why });
      return this.reportOnCall(call.id, `E-mail: ${why}`);
    }
    const message = callSummaryMail(mail.brand, owner.summaryEmail ?? owner.email, call);
    const [intent] = await this.db
      .insert(notifications)
      // The subject only: the mail's transcript would otherwise outlive the call's under the retention policy.
      .values({ callId: call.id, userId: owner.id, channel: 'email', kind: 'summary', to: message.to, body: message.subject, status: 'sending' })
      .returning({ id: notifications.id });
    try {
      await mail.mailer.send(message);
    } catch (err) {
      const error = errorMessage(err);
      await this.settle(intent!.id, call.id, true, { status: 'failed', error });
      await this.reportOnCall(call.id, `E-mail: ${error}`);
      throw err;
    }
    // As for texts: the relay has it, so the record is retried until it lands, never resent.
    await retryWhileBusy(this.db, 'record a sent e-mail', () => this.settle(intent!.id, call.id, true, { status: 'sent', providerId: 'mail' }));
  }

  private async settle(rowId: number, callId: number, onCall: boolean, r: { status: 'sent'; providerId: string } | { status: 'failed'; error: string }): Promise<void> {
    const { calls, notifications } = tablesOf(this.db);
    await transaction(this.db, async () => {
      await this.db
        .update(notifications)
        .set(r.status === 'sent' ? { status: 'sent', providerId: r.providerId, error: null } : { status: 'failed', error: r.error })
        .where(eq(notifications.id, rowId));
      if (r.status === 'sent' && onCall) await this.db.update(calls).set({ notificationSent: true }).where(eq(calls.id, callId));
    });
  }

  private async reportOnCall(callId: number, problem: string | null): Promise<void> {
    const { calls } = tablesOf(this.db);
    await this.db.update(calls).set({ notificationError: problem }).where(eq(calls.id, callId));
  }
}
