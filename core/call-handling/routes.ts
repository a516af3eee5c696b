import type { ApiCallHandlingResponse, CallHandlingListName, CallHandlingSettings } from '../../contract/call-handling.js';
import { formatPhone, toE164 } from '../../contract/phone.js';
import { CallHandlingListEntryBody, CallHandlingResponse, CallHandlingUpdateBody } from '../../contract/schemas/call-handling.js';
import { ApiErrorSchema, MessageResponse } from '../../contract/schemas/shared.js';
import { badRequest, conflict, forbidden, HttpError, tooManyRequests } from '../http/errors.js';
import { routeLimit } from '../http/rate-limits.js';
import type { TestTransferResult } from '../ports/test-transfer.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { outboundRefusalNow, type OutboundRefusal } from '../outbound/index.js';
import { loadCallHandling, saveCallHandling, transferGuard } from './store.js';
import { listFullMessage, MESSAGES, validateCallHandling } from './validate.js';
import { lockOwner, transaction } from '../db/transaction.js';

const FIELD_MESSAGES: Record<string, string> = {
  transferNumber: MESSAGES.transferNumber,
  transferTimeoutSeconds: MESSAGES.timeout,
  hours: 'Opening hours must be given per day (mon to sun) as a list of {open, close} times in HH:MM.',
  holidayNations: 'Bank holidays must be chosen from england-wales, scotland and northern-ireland.',
  closedMode: 'Closed-hours mode must be voicemail or agent.',
  withheld: 'Withheld numbers must be handled as normal, message-only or refuse.',
  closedGreeting: MESSAGES.closedGreeting,
  blockList: 'The block list must be a list of phone numbers.',
  vipList: 'The VIP list must be a list of phone numbers.',
  number: 'Give the phone number as text, e.g. 07700 900123.',
  callBacksBy: MESSAGES.callBacksBy,
  callBackAfterMinutes: MESSAGES.callBackAfterMinutes,
};

const clearValidation: NonNullable<Parameters<App['put']>[1]>['errorHandler'] = (error, _req, reply) => {
  const first = error.validation?.[0];
  if (!first || first.keyword === 'additionalProperties' || first.keyword === 'required') throw error;
  const field = first.instancePath.split('/')[1] ?? '';
  const message = first.keyword === 'maxItems' && (field === 'blockList' || field === 'vipList') ? listFullMessage(field) : FIELD_MESSAGES[field];
  if (!message) throw error;
  return reply.status(400).send({ message });
};

/** A test call the appliance may not place: the owner's account, the number's kind, or today's minutes. */
function refusedTestTransfer(r: OutboundRefusal): HttpError {
  switch (r.kind) {
    case 'inactive':
      return forbidden(r.message);
    case 'not-dialable':
      return badRequest(r.message, { transferNumber: r.message });
    case 'daily-cap':
      return tooManyRequests(r.message);
  }
}

const LIST_FIELD = { block: 'blockList', vip: 'vipList' } as const;
const LIST_LABEL = { block: 'block list', vip: 'VIP list' } as const;

function testTransferMessage(r: TestTransferResult): string {
  switch (r.kind) {
    case 'no-transfer-number':
      throw badRequest('Save a transfer number first.');
    case 'no-phone-number':
      throw badRequest('Your account has no phone number yet: a test call shows it as the caller ID.');
    case 'pbx-down':
      throw new HttpError(503, 'The phone system is not connected right now. Please try again in a minute.');
  }
  const to = formatPhone(r.number);
  switch (r.outcome) {
    case 'answered':
      return `Your phone (${to}) answered: listen to the sample briefing, then press 1 or 2.`;
    case 'busy':
      return `Your phone (${to}) was busy. Try again when the line is free.`;
    case 'rejected':
      return `Your phone (${to}) rejected the call.`;
    case 'no-answer':
      return `Your phone (${to}) did not answer within ${r.ringSeconds} seconds.`;
    default:
      return `The call to ${to} could not be placed: check the number, and ask your operator to check the outbound trunk.`;
  }
}

/**
 * The owner's call handling (issue 16): GET/PUT the whole settings, and add or take off one
 * number on the block or VIP list (a call card's "Unblock" is one DELETE). Owner-scoped: the
 * signed-in user's own row, nobody else's.
 */
export async function callHandlingRoutes(app: App): Promise<void> {
  const { database, now } = app.services;
  const db = database.db;

  // Inside transaction() (whose body may run twice on PostgreSQL): database work only.
  const save = (userId: number, settings: CallHandlingSettings) => saveCallHandling(db, userId, settings, now());
  // After the transaction has committed: the PBX re-reads the settings once.
  const changed = (userId: number) => {
    for (const listener of app.services.hooks.settingsChanged) listener(userId);
  };

  app.get('/api/user/call-handling', { schema: { response: { 200: CallHandlingResponse } } }, async (req): Promise<ApiCallHandlingResponse> => {
    return { callHandling: await loadCallHandling(db, currentUser(req).id) };
  });

  app.put(
    '/api/user/call-handling',
    { schema: { body: CallHandlingUpdateBody, response: { 200: CallHandlingResponse, 400: ApiErrorSchema } }, errorHandler: clearValidation },
    async (req): Promise<ApiCallHandlingResponse> => {
      const user = currentUser(req);
      const result = await transaction(db, async () => {
        await lockOwner(db, user.id);
        const next = validateCallHandling(req.body, await loadCallHandling(db, user.id), await transferGuard(db, user.id, app.services.config.outbound.allow));
        if (!('message' in next)) await save(user.id, next);
        return next;
      });
      if ('message' in result) throw badRequest(result.message, { [result.field]: result.message });
      changed(user.id);
      return { callHandling: result, message: 'Call handling saved' };
    },
  );

  // Rings the owner's phone as a put-through call would: one at a time, a few per quarter hour.
  const testing = new Set<number>();
  app.post(
    '/api/user/call-handling/test-transfer',
    {
      schema: { response: { 200: MessageResponse } },
      config: routeLimit(app.rateLimits.testTransfersPerOwner, (req) => `owner:${req.user?.id}`, 'preHandler'),
    },
    async (req): Promise<{ message: string }> => {
      const user = currentUser(req);
      const ring = app.testTransfer;
      if (!ring) throw badRequest('Putting calls through is not set up on this appliance: the operator sets OUTBOUND_ENDPOINT (see the README).');
      const { transferNumber } = await loadCallHandling(db, user.id);
      const refused = transferNumber ? await outboundRefusalNow(db, user.id, transferNumber, app.services.config.outbound, now()) : null;
      if (refused) throw refusedTestTransfer(refused);
      if (testing.has(user.id)) throw conflict('A test call to your phone is already on its way.');
      testing.add(user.id);
      try {
        return { message: testTransferMessage(await ring(user.id)) };
      } finally {
        testing.delete(user.id);
      }
    },
  );

  for (const list of ['block', 'vip'] as const satisfies readonly CallHandlingListName[]) {
    const field = LIST_FIELD[list];
    const path = `/api/user/call-handling/${list}`;
    const entry = (raw: string) => {
      const number = toE164(raw);
      if (!number) throw badRequest(`"${raw}" is not a phone number.`, { number: `"${raw}" is not a phone number.` });
      return number;
    };

    app.post(path, { schema: { body: CallHandlingListEntryBody, response: { 200: CallHandlingResponse, 400: ApiErrorSchema } }, errorHandler: clearValidation }, async (req): Promise<ApiCallHandlingResponse> => {
      const user = currentUser(req);
      const number = entry(req.body.number);
      const { result, saved } = await transaction(db, async () => {
        await lockOwner(db, user.id); // another core's save of this owner's lists waits, then reads this one's
        const current = await loadCallHandling(db, user.id);
        if (current[field].includes(number)) return { result: current, saved: false };
        const next = validateCallHandling({ [field]: [...current[field], number] }, current, await transferGuard(db, user.id, app.services.config.outbound.allow));
        if ('message' in next) return { result: next, saved: false };
        await save(user.id, next);
        return { result: next, saved: true };
      });
      if ('message' in result) throw badRequest(result.message, { number: result.message });
      if (saved) changed(user.id);
      return { callHandling: result, message: `${number} is on your ${LIST_LABEL[list]}.` };
    });

    app.delete(path, { schema: { body: CallHandlingListEntryBody, response: { 200: CallHandlingResponse, 400: ApiErrorSchema } }, errorHandler: clearValidation }, async (req): Promise<ApiCallHandlingResponse> => {
      const user = currentUser(req);
      const number = entry(req.body.number);
      const { callHandling, saved } = await transaction(db, async () => {
        await lockOwner(db, user.id); // another core's save of this owner's lists waits, then reads this one's
        const current = await loadCallHandling(db, user.id);
        if (!current[field].includes(number)) return { callHandling: current, saved: false };
        const next = { ...current, [field]: current[field].filter((n) => n !== number) };
        await save(user.id, next);
        return { callHandling: next, saved: true };
      });
      if (saved) changed(user.id);
      return { callHandling, message: `${number} is off your ${LIST_LABEL[list]}.` };
    });
  }
}
