import { createHmac, timingSafeEqual } from 'node:crypto';

// The .ics link in a booking's texts: the booking's id signed with the box's slot key (under its
// own label), so the link opens that one booking and cannot be walked to others.

const mac = (key: Buffer, id: number) => createHmac('sha256', key).update(`booking-ics:${id}`).digest().subarray(0, 12).toString('base64url');

export const bookingRef = (key: Buffer, id: number) => `${id}.${mac(key, id)}`;

export function readBookingRef(key: Buffer, ref: string): number | null {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{16})$/.exec(ref);
  if (!m) return null;
  const id = Number(m[1]);
  const want = Buffer.from(mac(key, id));
  const given = Buffer.from(m[2]!);
  return want.length === given.length && timingSafeEqual(want, given) ? id : null;
}
