// Twilio's reply webhook (core/twilio/webhook-routes.ts): server to server, answered with TwiML.
import { Type } from 'typebox';

/** Twilio's form fields the product reads; Twilio sends many more, all covered by the signature. */
export const TwilioInboundMessageBody = Type.Object(
  {
    MessageSid: Type.String({ pattern: '^[A-Z]{2}[0-9a-fA-F]{32}$' }),
    From: Type.String({ minLength: 1, maxLength: 64 }),
    To: Type.String({ minLength: 1, maxLength: 64 }),
    // SMS up to 10 segments, WhatsApp up to 1,600 characters. Verbatim: a caller's text is theirs,
    // kept with what would hide or reorder it removed (core/caller-texts/inbound.ts), never refused.
    Body: Type.String({ maxLength: 1600, verbatim: true }),
  },
  { additionalProperties: true },
);

/**
 * Twilio's status callback for a message it sends (StatusCallback on the Messages API):
 * https://www.twilio.com/docs/messaging/guides/track-outbound-message-status
 */
export const TwilioMessageStatusBody = Type.Object(
  {
    MessageSid: Type.String({ pattern: '^[A-Z]{2}[0-9a-fA-F]{32}$' }),
    MessageStatus: Type.String({ minLength: 1, maxLength: 32 }),
    ErrorCode: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: true },
);
