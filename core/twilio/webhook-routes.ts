import type { FastifyReply, FastifyRequest } from 'fastify';
import { toE164 } from '../../contract/phone.js';
import { TwilioInboundMessageBody, TwilioMessageStatusBody } from '../../contract/schemas/twilio.js';
import { MESSAGE_STATUS_PATH } from '../caller-texts/service.js';
import { recordDeliveryStatus } from '../caller-texts/delivery-status.js';
import { canSignIn } from '../http/session-hook.js';
import type { App } from '../http/fastify-types.js';
import { HttpError } from '../http/errors.js';
import { gatewayFromConfig } from '../notify/gateway-from-config.js';
import { handleOwnerText } from '../followup/inbound-text.js';
import { twilioSdk } from './sdk.js';

const MESSAGES_WEBHOOK_PATH = '/api/twilio/messages';

/** An empty TwiML answer: Twilio sends nothing itself (the reply goes through the messaging gateway). */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * POST /api/twilio/messages: texts the owner sends back to their summaries (SMS, or WhatsApp
 * as `whatsapp:+44…`). Registered inside the /api scope, so it gets the scope's no-store and
 * error handling, but marked `webhook` so the console's same-origin/JSON guard and session
 * lookup step aside: Twilio posts a form from its own servers, authenticated by
 * `X-Twilio-Signature` (HMAC-SHA1 of the URL it was configured with and the sorted fields,
 * keyed by the auth token: https://www.twilio.com/docs/usage/webhooks/webhooks-security),
 * which is checked with the SDK's `validateRequest` against PUBLIC_URL before anything else.
 */
export async function twilioWebhookRoutes(app: App): Promise<void> {
  const { config, database, log, now } = app.services;
  const webhookUrl = new URL(MESSAGES_WEBHOOK_PATH, config.publicUrl).toString();
  const statusUrl = new URL(MESSAGE_STATUS_PATH, config.publicUrl).toString();
  let gateway: ReturnType<typeof gatewayFromConfig> | null = null;
  const callerText = app.services.callerTexts.callerText();

  // Form bodies only here: this plugin is encapsulated, so the rest of /api stays JSON-only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  /**
   * Twilio posts forms, nothing else: any other body (JSON above all, which the /api scope
   * would parse into objects) is refused before it is read.
   */
  async function formsOnly(req: FastifyRequest): Promise<void> {
    const type = req.headers['content-type'];
    if (type === undefined || !/^application\/x-www-form-urlencoded\b/i.test(type)) {
      throw new HttpError(415, 'Twilio webhooks are sent as forms (Content-Type: application/x-www-form-urlencoded).');
    }
  }

  /**
   * Runs before validation, so an unsigned request learns nothing about what a valid one holds.
   * Each route is signed over its own URL, as configured at Twilio.
   */
  const signedFor = (url: string) => async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    // A form's fields are strings; anything else is not from Twilio and must not reach the signature check.
    if (Object.values(body).some((v) => typeof v !== 'string')) {
      log.warn({ reason: 'a field that is not text' }, 'twilio webhook refused');
      throw new HttpError(403, 'Forbidden.');
    }
    const params = body as Record<string, string>;
    const sid = typeof params.MessageSid === 'string' ? params.MessageSid.slice(0, 40) : undefined;
    const token = config.twilio.authToken;
    const signature = req.headers['x-twilio-signature'];
    const why = !token
      ? 'Twilio is not configured (TWILIO_AUTH_TOKEN unset)'
      : typeof signature !== 'string' || !signature
        ? 'no X-Twilio-Signature'
        : !twilioSdk().validateRequest(token, signature, url, params)
          ? 'X-Twilio-Signature does not match'
          : null;
    if (why) {
      // Logged by id, never by content: the body may be anyone's text.
      log.warn({ messageSid: sid, reason: why }, 'twilio webhook refused');
      throw new HttpError(403, 'Forbidden.');
    }
  };

  app.post(
    MESSAGES_WEBHOOK_PATH,
    { config: { webhook: true, rawReply: true }, onRequest: formsOnly, preValidation: signedFor(webhookUrl), schema: { body: TwilioInboundMessageBody } },
    async (req, reply) => {
      const b = req.body;
      const whatsapp = b.From.startsWith('whatsapp:');
      const from = toE164(b.From.replace(/^whatsapp:/, ''));
      const to = b.To.replace(/^whatsapp:/, '');
      gateway ??= gatewayFromConfig(app.services);
      await handleOwnerText(
        { db: database.db, gateway, log, now, settingsChanged: app.services.hooks.settingsChanged, canAct: canSignIn, callerText },
        { messageSid: b.MessageSid, channel: whatsapp ? 'whatsapp' : 'sms', from, to, body: b.Body },
      );
      return reply.type('text/xml').send(EMPTY_TWIML);
    },
  );

  /**
   * POST /api/twilio/message-status: Twilio's status callback for each text to a caller (the
   * road asks for it when Twilio sends). Signed like the inbound webhook; marks the text
   * delivered, failed or undelivered, with the provider's reason.
   */
  app.post(
    MESSAGE_STATUS_PATH,
    { config: { webhook: true, rawReply: true }, onRequest: formsOnly, preValidation: signedFor(statusUrl), schema: { body: TwilioMessageStatusBody } },
    async (req, reply) => {
      await recordDeliveryStatus(database.db, now, log, req.body.MessageSid, req.body.MessageStatus, req.body.ErrorCode);
      return reply.type('text/xml').send(EMPTY_TWIML);
    },
  );
}
