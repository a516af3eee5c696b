import type { DestinationKind } from '../../contract/schemas/destinations.js';
import type { Db } from '../db/client.js';
import type { CoreDeps } from '../deps.js';
import { badRequest, HttpError } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { MessageGateway } from '../notify/gateway.js';
import { gatewayFromConfig } from '../notify/gateway-from-config.js';
import { textRefusal, type OutboundAllowList } from '../outbound/dialable.js';
import { codeMail, codeText } from './destination-code.js';
import { cancelConfirmation, ownerNumber, pendingDestinations, startConfirmation } from './pending.js';

export interface CodeSender {
  db: Db;
  gateway: MessageGateway;
  mailer: Mailer;
  /** TWILIO_MESSAGING_FROM: the sender when the owner has no number yet. */
  messagingFrom?: string;
  /** Twilio needs a sender; the outbox does not. */
  needsSender: boolean;
  /** OUTBOUND_ALLOW: prefixes the operator lets the appliance reach whatever their type. */
  outboundAllow: OutboundAllowList;
}

/** The code sender the configuration gives: settings saves and approvals send codes the same way. */
export function codeSenderFor(services: Pick<CoreDeps, 'config' | 'mailer' | 'database'>): CodeSender {
  const { config } = services;
  return {
    db: services.database.db,
    gateway: gatewayFromConfig(services),
    mailer: services.mailer,
    messagingFrom: config.twilio.messagingFrom,
    needsSender: Boolean(config.twilio.accountSid && config.twilio.authToken),
    outboundAllow: config.outbound.allow,
  };
}

const NO_SENDER =
  'A new notification number can be confirmed once your business has its phone number: the code is texted from it. Please try again after your number is set up.';

/**
 * Sends a confirmation code to a destination the owner asked for: the only message an
 * unconfirmed destination ever gets. Until the code comes back, notifications keep going
 * where they went before. A destination already waiting for its code gets no second one
 * (the console sends the whole form on every save): false then. A number the appliance may not
 * text (premium, satellite, abroad: the outbound rules) gets nothing: 400.
 */
export async function sendDestinationCode(s: CodeSender, userId: number, kind: DestinationKind, destination: string, now: Date): Promise<boolean> {
  if (kind === 'sms') {
    const refused = textRefusal(destination, s.outboundAllow);
    if (refused) throw badRequest(refused, { notificationNumber: refused });
  }
  const waiting = await pendingDestinations(s.db, userId, now);
  if (waiting.some((p) => p.kind === kind && p.destination === destination)) return false;
  const sender = kind === 'sms' ? ((await ownerNumber(s.db, userId)) ?? s.messagingFrom) : undefined;
  if (kind === 'sms' && !sender && s.needsSender) throw badRequest(NO_SENDER);
  const code = await startConfirmation(s.db, userId, kind, destination, now);
  try {
    if (kind === 'sms') {
      await s.gateway.send({ channel: 'sms', to: destination, businessNumber: sender ?? '', body: codeText(code), key: `confirm-${userId}-${now.getTime()}` });
    } else {
      await s.mailer.send(codeMail(destination, code));
    }
  } catch {
    await cancelConfirmation(s.db, userId, kind);
    throw new HttpError(502, `The confirmation code could not be sent to ${destination} just now. Please check it and save again.`);
  }
  return true;
}
