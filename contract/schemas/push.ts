// Push alerts' devices and settings (core/push/routes.ts, issue 54). Request bodies are read by
// core/push/validate.ts, whose refusals are the sentences the console shows.
import { Type, type Static } from 'typebox';
import { PUSH_CALL_CHOICES } from '../push-alert.js';
import { Nullable, OneOf } from './shared.js';

export const PushKeyResponse = Type.Object({
  /** The box's VAPID public key (base64url), for pushManager.subscribe's applicationServerKey. */
  publicKey: Type.String(),
});

const ApiPushDeviceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The push service's host (fcm.googleapis.com, web.push.apple.com…): which browser family it is. */
  service: Type.String(),
  /** The endpoint itself, so the console can tell which row is this browser. */
  endpoint: Type.String(),
  calls: OneOf(PUSH_CALL_CHOICES),
  bookings: Type.Boolean(),
  callerTexts: Type.Boolean(),
  /** London times HH:MM; null = no quiet hours. */
  quietStart: Nullable(Type.String()),
  quietEnd: Nullable(Type.String()),
  createdAt: Type.String(),
  lastSentAt: Nullable(Type.String()),
});
export type ApiPushDevice = Static<typeof ApiPushDeviceSchema>;

export const PushDevicesResponse = Type.Object({
  devices: Type.Array(ApiPushDeviceSchema),
  /** The owner's "text me only if the push was not opened within N minutes"; null = texts go as ever. Staff: always null. */
  textDelayMinutes: Nullable(Type.Integer()),
});
export type ApiPushDevices = Static<typeof PushDevicesResponse>;

export const PushDeviceResponse = Type.Object({ device: ApiPushDeviceSchema, message: Type.String() });
export const PushSettingsResponse = Type.Object({ textDelayMinutes: Nullable(Type.Integer()), message: Type.String() });

/** Bodies are read field by field by core/push/validate.ts, so each refusal names what is wrong in words. */
export const PushBody = Type.Record(Type.String(), Type.Unknown());
export const PushAlertParams = Type.Object({ alertId: Type.String({ minLength: 1, maxLength: 64 }) });
