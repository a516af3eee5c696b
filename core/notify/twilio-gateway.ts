import type { Twilio } from 'twilio';
import { NotifyError, type MessageGateway, type OutgoingMessage } from './gateway.js';

/** Twilio errors that mean this number will never take a message: report, do not retry. */
const PERMANENT_CODES: Record<number, string> = {
  21211: 'the notification number is not a valid phone number',
  21614: 'the notification number is not a mobile number, so it cannot receive texts',
  21610: 'the notification number has replied STOP to texts from this sender',
  21408: 'texts to this country are not enabled on the Twilio account',
  63003: 'the notification number is not on WhatsApp',
};

export interface TwilioGatewayOptions {
  /** TWILIO_MESSAGING_FROM: a sender number, an alphanumeric sender ID, or a Messaging Service SID (MG…). */
  messagingFrom?: string;
}

/**
 * Twilio's Messaging API through the `twilio` SDK. SMS go from the configured sender or
 * else the business's own number; WhatsApp uses `whatsapp:+44…` on both ends.
 */
export function createTwilioGateway(client: Twilio, opts: TwilioGatewayOptions = {}): MessageGateway {
  const address = (m: OutgoingMessage) => {
    const prefix = m.channel === 'whatsapp' ? 'whatsapp:' : '';
    const sender = opts.messagingFrom ?? m.businessNumber;
    return {
      to: `${prefix}${m.to}`,
      ...(sender.startsWith('MG') ? { messagingServiceSid: sender } : { from: `${prefix}${sender}` }),
    };
  };
  return {
    name: 'twilio',
    async send(m) {
      try {
        const msg = await client.messages.create({ ...address(m), body: m.body, ...(m.statusCallback ? { statusCallback: m.statusCallback } : {}) });
        return { providerId: msg.sid };
      } catch (err) {
        throw classify(err);
      }
    },
    async reconcile(m, since) {
      // Twilio has no idempotency key for Messages: look for our message among those sent to the number since the attempt began.
      try {
        const to = address(m).to;
        // Every page since the attempt, not the newest few: a busy owner's number can take more
        // than a page of texts in the minutes a lease takes to lapse, and a message missed here
        // is sent twice.
        const recent = await client.messages.list({ to, dateSentAfter: new Date(since.getTime() - 60_000), pageSize: 1000 });
        const hit = recent.find((r) => r.to === to && r.body === m.body);
        return hit ? { sent: true, providerId: hit.sid } : { sent: false };
      } catch {
        return 'unknown';
      }
    },
  };
}

function classify(err: unknown): NotifyError {
  const e = err as { status?: number; code?: number; message?: string };
  if (typeof e?.status === 'number') {
    const known = e.code !== undefined ? PERMANENT_CODES[e.code] : undefined;
    if (known) return new NotifyError(`${known} (Twilio ${e.code})`, false, e.code, { cause: err });
    return new NotifyError(`Twilio answered ${e.status}${e.code ? ` (${e.code})` : ''}: ${e.message ?? ''}`.trim(), { httpStatus: e.status }, e.code, { cause: err });
  }
  return new NotifyError(`Twilio is unreachable: ${e?.message ?? String(err)}`, true, undefined, { cause: err });
}
