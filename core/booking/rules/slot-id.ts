import { createHmac, timingSafeEqual } from 'node:crypto';

// Slot ids: the service and start, signed for this owner with the slot key, so only an id the
// desk issued can be booked (a model's invented or altered id fails the check) and no table of
// offers has to be kept or cleaned. Opaque to the agent: base64url, never parsed outside here.

export interface SlotRef {
  serviceId: number;
  start: number;
  /** The person the time is with (issue 58); signed with the rest, so an offer for Tom cannot be booked with Sarah. */
  staffId?: number;
}

const withStaff = (ref: SlotRef, sep: string) => (ref.staffId === undefined ? '' : `${sep}${ref.staffId}`);

const mac = (key: Buffer, ownerId: number, ref: SlotRef) =>
  createHmac('sha256', key).update(`${ownerId}:${ref.serviceId}:${ref.start}${withStaff(ref, ':')}`).digest().subarray(0, 16);

export function slotId(key: Buffer, ownerId: number, ref: SlotRef): string {
  const body = Buffer.from(`${ref.serviceId}.${ref.start}${withStaff(ref, '.')}`).toString('base64url');
  return `${body}.${mac(key, ownerId, ref).toString('base64url')}`;
}

/** The slot an id names, or null when this desk did not issue it for this owner. */
export function readSlotId(key: Buffer, ownerId: number, id: string): SlotRef | null {
  const [body, sig] = id.split('.');
  if (!body || !sig) return null;
  const m = /^(\d{1,9})\.(\d{1,15})(?:\.(\d{1,9}))?$/.exec(Buffer.from(body, 'base64url').toString());
  if (!m) return null;
  const ref: SlotRef = { serviceId: Number(m[1]), start: Number(m[2]), ...(m[3] === undefined ? {} : { staffId: Number(m[3]) }) };
  const given = Buffer.from(sig, 'base64url');
  const want = mac(key, ownerId, ref);
  return given.length === want.length && timingSafeEqual(given, want) ? ref : null;
}

/** The key a booking keeps of its slot, for a retried book from the same call; a member's slot names them (the owner's reads as before the team). */
export const slotKey = (ref: SlotRef) => `${ref.serviceId}:${ref.start}${withStaff(ref, ':')}`;
