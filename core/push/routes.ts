import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ApiErrorSchema, IdParams, MessageResponse } from '../../contract/schemas/shared.js';
import { PushAlertParams, PushBody, PushDeviceResponse, PushDevicesResponse, PushKeyResponse, PushSettingsResponse, type ApiPushDevice } from '../../contract/schemas/push.js';
import type { PushSubscriptionRow } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { OWNER_ONLY } from '../team/staff-scope.js';
import { checkedAddress, RefusedAddressError, UnresolvableHostError } from '../webhooks/address-guard.js';
import { findDevice, listDevices, loadTextDelay, removeDevice, saveDevice, saveTextDelay, updateDevice, type DeviceOwner } from './device-store.js';
import { parsePreferences, parseSubscription, parseTextDelay, type Verdict } from './validate.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toApiDevice(d: PushSubscriptionRow): ApiPushDevice {
  return {
    id: d.id,
    name: d.name,
    service: new URL(d.endpoint).host,
    endpoint: d.endpoint,
    calls: d.calls,
    bookings: d.bookings,
    callerTexts: d.callerTexts,
    quietStart: d.quietStart,
    quietEnd: d.quietEnd,
    createdAt: d.createdAt.toISOString(),
    lastSentAt: iso(d.lastSentAt),
  };
}

/** The sign-in asking: the owner's devices are the owner's; a team member's own phone is theirs. */
function deviceOwner(req: FastifyRequest): DeviceOwner {
  const user = currentUser(req);
  return req.staff ? { userId: user.id, loginUserId: req.staff.loginUserId, staffId: req.staff.staffId } : { userId: user.id, loginUserId: user.id, staffId: null };
}

function accepted<T>(v: Verdict<T>): T {
  if (!v.ok) throw badRequest(v.message, { [v.field]: v.message });
  return v.value;
}

const NO_DEVICE = 'This device is not on your list (it may have been removed).';

/** /api/user/push/…: the box's public key, this sign-in's devices and their preferences, the owner's delayed text, alerts opened. */
async function pushRoutes(app: App): Promise<void> {
  const { push, database, now } = app.services;
  const db = database.db;
  const errors = { 400: ApiErrorSchema, 404: ApiErrorSchema };

  app.get('/api/user/push/key', { schema: { response: { 200: PushKeyResponse } } }, async () => ({ publicKey: push.vapid().publicKey }));

  app.get('/api/user/push/devices', { schema: { response: { 200: PushDevicesResponse } } }, async (req) => {
    const who = deviceOwner(req);
    return { devices: (await listDevices(db, who)).map(toApiDevice), textDelayMinutes: who.staffId === null ? await loadTextDelay(db, who.userId) : null };
  });

  app.post('/api/user/push/devices', { schema: { body: PushBody, response: { 200: PushDeviceResponse, 201: PushDeviceResponse, 400: ApiErrorSchema } } }, async (req, reply) => {
    const who = deviceOwner(req);
    const input = accepted(parseSubscription(req.body));
    // Where the push service is, as the webhooks' guard judges it: a public address, never the box's own network.
    const host = new URL(input.endpoint).hostname;
    try {
      await checkedAddress(host, { resolver: push.guard.resolver, allowLoopback: push.guard.allowLoopback });
    } catch (err) {
      const message = err instanceof RefusedAddressError ? `Push alerts only go to a public push service: ${err.detail}` : err instanceof UnresolvableHostError ? `The push service ${err.host} could not be found; try again` : null;
      if (message) throw badRequest(message, { endpoint: message });
      throw err;
    }
    const { device, created } = await saveDevice(db, who, input, now());
    return reply.status(created ? 201 : 200).send({ device: toApiDevice(device), message: created ? `Alerts turned on for ${device.name}` : `${device.name} updated` });
  });

  app.patch('/api/user/push/devices/:id', { schema: { params: IdParams, body: PushBody, response: { 200: PushDeviceResponse, ...errors } } }, async (req) => {
    const who = deviceOwner(req);
    const change = accepted(parsePreferences(req.body));
    const device = Object.keys(change).length ? await updateDevice(db, who, req.params.id, change, now()) : await findDevice(db, who, req.params.id);
    if (!device) throw notFound(NO_DEVICE);
    return { device: toApiDevice(device), message: 'Device saved' };
  });

  app.delete('/api/user/push/devices/:id', { schema: { params: IdParams, response: { 200: MessageResponse, 404: ApiErrorSchema } } }, async (req) => {
    if (!(await removeDevice(db, deviceOwner(req), req.params.id))) throw notFound(NO_DEVICE);
    return { message: 'Device removed: it gets no more alerts' };
  });

  app.put('/api/user/push/settings', { schema: { body: PushBody, response: { 200: PushSettingsResponse, 400: ApiErrorSchema, 403: ApiErrorSchema } } }, async (req) => {
    if (req.staff) throw forbidden(OWNER_ONLY);
    const minutes = accepted(parseTextDelay(req.body.textDelayMinutes));
    await saveTextDelay(db, currentUser(req).id, minutes, now());
    return { textDelayMinutes: minutes, message: minutes === null ? 'Texts go as soon as a call is summarised' : `Texts wait ${minutes} minute${minutes === 1 ? '' : 's'} for you to open the alert` };
  });

  app.post('/api/user/push/alerts/:alertId/opened', { schema: { params: PushAlertParams, response: { 200: MessageResponse, 404: ApiErrorSchema } } }, async (req) => {
    if (!(await push.opened(currentUser(req).id, req.params.alertId))) throw notFound('No such alert.');
    return { message: 'Alert opened' };
  });
}

/** Encapsulated; needs the services (core/plugins/app-services.ts). */
export const pushRoutesPlugin = fp(pushRoutes, { name: 'push-routes', dependencies: ['services'], encapsulate: true });
