// Issue 59 part B, item 6: the owner sees each deposit state in the bookings list
// (GET /api/user/bookings): awaiting with its amount and due time, then paid.
import { describe, expect, it } from 'vitest';
import { awaitingBooking, bookingRow, connected, useWorld } from './setup.js';

const theWorld = useWorld();

const listed = async (id: number) => {
  const r = await theWorld().client.get('/api/user/bookings');
  expect(r.status).toBe(200);
  return (r.body.bookings as Array<Record<string, unknown>>).find((b) => b.id === id);
};

describe('the owner\'s bookings list', () => {
  it('shows depositState, depositPence and depositDueAt as each state is reached', async () => {
    const w = theWorld();
    await connected(w);
    const id = await awaitingBooking(w);
    await w.deposits.startHold(id);
    const due = (await bookingRow(w, id)).depositDueAt!.toISOString();
    expect(await listed(id)).toMatchObject({ status: 'booked', depositState: 'awaiting', depositPence: 2000, depositDueAt: due });
    await w.deposits.handlers.deposits(w.userId, w.stripe.completeCheckout((await bookingRow(w, id)).depositSessionId!)[0]!);
    expect(await listed(id)).toMatchObject({ status: 'booked', depositState: 'paid', depositPence: 2000 });
  });
});
