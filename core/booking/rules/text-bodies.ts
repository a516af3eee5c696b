import { londonWall, londonWallToUtc } from './london-wall.js';
import { shortWhen } from '../../../dialogue/language/dates.js';

// The booking texts to the caller (pure): what they say, and when the reminder goes.

const DAY_MS = 86_400_000;
/** The reminder goes at 18:00 London the evening before. */
const REMINDER_MINUTE = 18 * 60;

export function confirmationText(business: string, service: string, start: Date, icsLink?: string): string {
  return `${business}: you're booked for ${service} on ${shortWhen(start)}. Reply C to cancel.${icsLink ? ` Add to your calendar: ${icsLink}` : ''}`;
}

export function reminderText(business: string, service: string, start: Date): string {
  return `${business}: a reminder of your ${service} tomorrow, ${shortWhen(start)}. Reply C to cancel.`;
}

export function ownerCancelledText(business: string, service: string, start: Date): string {
  return `${business}: sorry, your ${service} on ${shortWhen(start)} has been cancelled. Please call us to book another time.`;
}

export function movedText(business: string, service: string, from: Date, to: Date): string {
  return `${business}: your ${service} has moved from ${shortWhen(from)} to ${shortWhen(to)}. Reply C to cancel.`;
}

export function callerCancelledText(business: string, service: string, start: Date): string {
  return `${business}: your ${service} on ${shortWhen(start)} is cancelled.`;
}

/**
 * When the evening-before reminder goes: 18:00 London on the day before the booking, or never
 * when the booking was made within a day of it (the confirmation has just told them) or that
 * evening has already passed.
 */
export function reminderAt(start: Date, bookedAt: Date): Date | null {
  if (start.getTime() - bookedAt.getTime() < DAY_MS) return null;
  const at = londonWallToUtc(londonWall(start.getTime()).day - 1, REMINDER_MINUTE);
  return at > bookedAt.getTime() ? new Date(at) : null;
}

/** A caller's reply that cancels their next booking: "C", in any case, with a final full stop ignored. */
export const isCancelReply = (body: string): boolean => /^c\.?$/i.test(body.trim());
