// Issue 59 part B, item 6: the owner sees each deposit state in the bookings list
// (GET /api/user/bookings): awaiting with its amount and due time, then paid.
import { afterEach, describe, expect, it } from 'vitest';
import { awaitingBooking, bookingRow, closeWorld, connected, world, type World } from './setup.js';

let w: World | undefined;
afterEach(async () => {
  await closeWorld(w);
  w = undefined;
});

const listed = async (id: number) => {
  const r = await w!.client.get('/api/user/bookings');
  expect(r.status).toBe(200);
  return (r.body.bookings as Array<Record<string, unknown>>).find((b) => b.id === id);
};

describe('the owner\'s bookings list', () => {
  it('shows depositState, depositPence and depositDueAt as each state is reached', async () => {
    w = await world();
    await connected(w);
    const id = await awaitingBooking(w);
    await w.deposits.startHold(id);
    const due = (await bookingRow(w, id)).depositDueAt!.toISOString();
    expect(await listed(id)).toMatchObject({ status: 'booked', depositState: 'awaiting', depositPence: 2000, depositDueAt: due });
    await w.deposits.handlers.deposits(w.userId, w.stripe.completeCheckout((await bookingRow(w, id)).depositSessionId!)[0]!);
    expect(await listed(id)).toMatchObject({ status: 'booked', depositState: 'paid', depositPence: 2000 });
  });
});
