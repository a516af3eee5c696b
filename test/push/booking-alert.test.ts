// A booking's push alert end to end (issue 54): the agent books a caller through the booking
// desk it uses on a call (as test/booking/* do), and the box alerts the owner's devices that
// take bookings, through the durable queue and web-push to the push-service pushDouble() on loopback,
// which checks the VAPID JWT and decrypts the payload with each device's own keys.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { londonMinute } from '../../core/push/preferences.js';
import { callFrom } from '../booking/fixtures.js';
import { CALLER, hhmm, startPushBox, until, usePushDouble, type PushBox } from './fixture.js';

// Each test starts its own box (sign-up, argon2) on a machine shared by several suites.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const pushDouble = usePushDouble();

let box: PushBox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const arrivedAt = (deviceId: string) => pushDouble().arrived.filter((a) => a.device === deviceId);

describe('a booking the agent makes on a call', () => {
  it('alerts once each device that takes bookings, saying who booked what and when and opening Bookings; none to a device that opted out or is in quiet hours', async () => {
    box = await startPushBox(pushDouble());
    // A Tuesday morning: the Monday after is inside the default booking horizon and hours.
    box.server.clock.offsetMs = Date.parse('2026-10-20T10:00:00Z') - Date.now();
    const db = box.server.database.db;
    await db.insert(tablesOf(db).bookingServices).values({ userId: box.ownerId, name: 'Boiler service', durationMinutes: 60 });

    const bookings = await box.device({ calls: 'none' });
    const optedOut = await box.device({ bookings: false });
    const now = londonMinute(box.server.services.now().getTime());
    const asleep = await box.device({ quietStart: hhmm(now + 1380), quietEnd: hhmm(now + 60) }); // an hour either side of now

    const desk = box.server.services.booking.desk(box.ownerId);
    const offer = await desk.offer({ wish: 'Monday the 26th of October' });
    if (offer.kind !== 'offered') throw new Error(`no times offered: ${offer.kind}`);
    const callId = await callFrom(db, box.ownerId, CALLER);
    const made = await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Jo', callerNumber: CALLER });
    if (made.kind !== 'booked') throw new Error(`not booked: ${made.kind}`);
    const bookingId = made.booking.id;

    await until(() => expect(arrivedAt(bookings.deviceId)).toHaveLength(1));
    const push = arrivedAt(bookings.deviceId)[0]!;
    expect(pushDouble().refused).toEqual([]);
    expect(push.jwt.aud).toBe(pushDouble().origin);
    expect(push.urgency).toBe('normal');
    expect(push.payload).toMatchObject({
      v: 1,
      kind: 'booking',
      title: 'Bookings',
      body: 'Jo (+44 770 090 0123) booked Boiler service for Mon 26 Oct, 09:00.',
      urgent: false,
      tag: `booking-made-${bookingId}`,
      replyUrl: `/dashboard/texts?caller=${encodeURIComponent(CALLER)}`,
      url: '/dashboard/bookings',
    });
    expect(push.payload).not.toHaveProperty('live');

    // A retried book from the same call is the same booking: no second alert.
    const again = await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Jo', callerNumber: CALLER });
    expect(again).toMatchObject({ kind: 'booked', booking: { id: bookingId } });
    const alerts = () => box!.server.services.push.alertsOf(box!.ownerId, `booking-made-${bookingId}`);
    await until(async () => expect((await alerts()).map((a) => a.status)).toEqual(['sent']));
    // One alert row, for the device that takes bookings: none was made for the other two.
    expect((await alerts()).map((a) => a.subscriptionId)).toEqual([bookings.id]);
    expect(arrivedAt(bookings.deviceId)).toHaveLength(1);
    expect(arrivedAt(optedOut.deviceId)).toHaveLength(0);
    expect(arrivedAt(asleep.deviceId)).toHaveLength(0);
  });
});
