import { describe, expect, it } from 'vitest';
import { BookingWalk } from '../../../dialogue/agent/booking-walk.js';
import { fakeSlots, FakeBookingDesk } from '../../../test/helpers/fake-booking-desk.js';
import type { FlowContext } from '../types.js';
import { openBookingWalk } from './booking.js';

// Which agent calls may book: only an owner with bookable services whose diary answers.

const warned: string[] = [];
const ctx = {
  owner: { userId: 5 },
  session: { callerNumber: '+447700900555' },
  callId: 9,
  log: { info: () => undefined, warn: (_o: unknown, msg: string) => warned.push(msg), error: () => undefined },
} as unknown as FlowContext;

describe('openBookingWalk', () => {
  it('no diary, or an owner without bookable services: no booking walk (the agent behaves as before)', async () => {
    expect(await openBookingWalk(undefined, ctx)).toBeUndefined();
    const desk = new FakeBookingDesk({ slots: fakeSlots(['Monday at ten']), services: [] });
    expect(await openBookingWalk(() => desk, ctx)).toBeUndefined();
  });

  it('an owner with bookable services: a walk for this owner', async () => {
    const asked: number[] = [];
    const desk = new FakeBookingDesk({ slots: fakeSlots(['Monday at ten']) });
    const walk = await openBookingWalk((ownerId) => (asked.push(ownerId), desk), ctx);
    expect(walk).toBeInstanceOf(BookingWalk);
    expect(asked).toEqual([5]);
  });

  it('services that cannot be read, or not within the bound: no booking walk, and a warning', async () => {
    const failing = new FakeBookingDesk({ slots: [] });
    failing.services = () => Promise.reject(new Error('database locked'));
    expect(await openBookingWalk(() => failing, ctx)).toBeUndefined();
    const hung = new FakeBookingDesk({ slots: [] });
    hung.services = () => new Promise(() => undefined);
    expect(await openBookingWalk(() => hung, ctx)).toBeUndefined();
    expect(warned).toEqual([
      'agent: the bookable services could not be read; this call takes no bookings',
      'agent: the bookable services were not read in time; this call takes no bookings',
    ]);
  });
});
