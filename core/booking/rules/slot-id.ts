import { createHmac, timingSafeEqual } from 'node:crypto';

// Slot ids: the service and start, signed for this owner with the slot key, so only an id the
// desk issued can be booked (a model's invented or altered id fails the check) and no table of
// offers has to be kept or cleaned. Opaque to the agent: base64url, never parsed outside here.

export interface SlotRef {
  serviceId: number;
  start: number;
}

const mac = (key: Buffer, ownerId: number, ref: SlotRef) =>
  createHmac('sha256', key).update(`${ownerId}:${ref.serviceId}:${ref.start}`).digest().subarray(0, 16);

export function slotId(key: Buffer, ownerId: number, ref: SlotRef): string {
  const body = Buffer.from(`${ref.serviceId}.${ref.start}`).toString('base64url');
  return `${body}.${mac(key, ownerId, ref).toString('base64url')}`;
}

/** The slot an id names, or null when this desk did not issue it for this owner. */
export function readSlotId(key: Buffer, ownerId: number, id: string): SlotRef | null {
  const [body, sig] = id.split('.');
  if (!body || !sig) return null;
  const m = /^(\d{1,9})\.(\d{1,15})$/.exec(Buffer.from(body, 'base64url').toString());
  if (!m) return null;
  const ref = { serviceId: Number(m[1]), start: Number(m[2]) };
  const given = Buffer.from(sig, 'base64url');
  const want = mac(key, ownerId, ref);
  return given.length === want.length && timingSafeEqual(given, want) ? ref : null;
}

/** The key a booking keeps of its slot, for a retried book from the same call. */
export const slotKey = (ref: SlotRef) => `${ref.serviceId}:${ref.start}`;
