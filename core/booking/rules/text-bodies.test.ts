import { describe, expect, it } from 'vitest';
import { confirmationText, isCancelReply, reminderAt } from './text-bodies.js';

const d = (iso: string) => new Date(iso);

describe('the evening-before reminder', () => {
  it('goes at 18:00 London the day before, in summer time and in winter', () => {
    expect(reminderAt(d('2026-07-15T09:00:00Z'), d('2026-07-01T12:00:00Z'))?.toISOString()).toBe('2026-07-14T17:00:00.000Z');
    expect(reminderAt(d('2026-12-15T09:00:00Z'), d('2026-12-01T12:00:00Z'))?.toISOString()).toBe('2026-12-14T18:00:00.000Z');
  });

  it('goes at the right London time across both clock changes', () => {
    // Booking on Monday 26 October 2026 (GMT): the evening before is Sunday 25th, already GMT.
    expect(reminderAt(d('2026-10-26T09:00:00Z'), d('2026-10-20T12:00:00Z'))?.toISOString()).toBe('2026-10-25T18:00:00.000Z');
    // Booking on Sunday 25 October at 10:00 GMT: the evening before (Saturday 24th) is still summer time.
    expect(reminderAt(d('2026-10-25T10:00:00Z'), d('2026-10-20T12:00:00Z'))?.toISOString()).toBe('2026-10-24T17:00:00.000Z');
    // Monday 30 March 2026 (BST): the evening before, Sunday 29th, is already summer time.
    expect(reminderAt(d('2026-03-30T08:00:00Z'), d('2026-03-20T12:00:00Z'))?.toISOString()).toBe('2026-03-29T17:00:00.000Z');
    // Sunday 29 March 10:00 BST: Saturday 28th evening is still GMT.
    expect(reminderAt(d('2026-03-29T09:00:00Z'), d('2026-03-20T12:00:00Z'))?.toISOString()).toBe('2026-03-28T18:00:00.000Z');
  });

  it('is not sent for a booking made within a day of it, or after that evening', () => {
    expect(reminderAt(d('2026-12-15T09:00:00Z'), d('2026-12-14T10:00:00Z'))).toBeNull();
    // 25 hours ahead, but booked at 20:00 the evening before: that evening has passed.
    expect(reminderAt(d('2026-12-16T09:00:00Z'), d('2026-12-15T08:00:00Z'))?.toISOString()).toBe('2026-12-15T18:00:00.000Z');
    expect(reminderAt(d('2026-12-16T21:00:00Z'), d('2026-12-15T19:00:00Z'))).toBeNull();
  });
});

describe('booking texts', () => {
  it('confirms with the business, the date and time in London, and how to cancel', () => {
    expect(confirmationText('Ace Plumbing', 'Boiler service', d('2026-03-30T08:00:00Z'))).toBe("Ace Plumbing: you're booked for Boiler service on Mon 30 Mar, 09:00. Reply C to cancel.");
  });

  it('reads C as a cancel reply, and nothing else', () => {
    expect(['C', 'c', ' c. '].map(isCancelReply)).toEqual([true, true, true]);
    expect(['CANCEL', 'Call me', 'cc'].map(isCancelReply)).toEqual([false, false, false]);
  });
});
