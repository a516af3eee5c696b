import type { BookableService } from '../agent/booking-desk.js';
import { spokenNumber } from './transfer.js';

// What the agent says while it books (issue 41), in English. Fixed texts around what the diary gave: every
// time and date spoken comes from the desk's `spoken`, never from the model. The other
// languages' are dialogue/language/booking-lines.ts.

/** A time as the desk gave it (an offered slot, a booking). */
export interface SpokenTime {
  start: Date;
  /** The desk's English words for it. */
  spoken: string;
}

/** A booking (or an offered slot) as it is said: its time and its service. */
export type SpokenBooking = SpokenTime & { serviceName: string };

export const BOOKING_LINES = {
  /** The diary could not be asked, or the caller took none of the times: the owner confirms one. */
  request: "I'll ask them to confirm a time with you.",
  /** After `request`: the caller's next turn is taken as their message (their name, what it is about). */
  requestDetails: "Please tell me your name and anything they should know, and I'll pass it on.",
  askName: 'Can I take your name, please?',
  askNumber: "What's the best number for them to call you back on?",
  badNumber: "Sorry, I didn't get that number. Could you say it again, digit by digit?",
  whichTime: 'Sorry, which of those times would you like?',
  taken: 'Sorry, that time has just been taken.',
  startAgain: "No problem, let's find another time.",
  nothingFree: "I'm sorry, I can't find a free time for that.",
} as const;

/** "A, B, or C": how a short list is said. */
function spokenList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')}, or ${items.at(-1)}`;
}

/** At most three offered times, soonest first, as the desk ordered them. */
export function offerTimes(slots: SpokenTime[]): string {
  const times = slots.slice(0, 3).map((s) => s.spoken);
  return times.length === 1 ? `I can do ${times[0]}. Would that suit you?` : `I can do ${spokenList(times)}. Which would suit you?`;
}

export function whichService(services: Pick<BookableService, 'name'>[]): string {
  return `Which would you like to book: ${spokenList(services.map((s) => s.name))}?`;
}

/** The booking as it will be made: "Tuesday the 3rd of December at ten o'clock, boiler service". */
export function bookingWords(b: Pick<SpokenBooking, 'spoken' | 'serviceName'>): string {
  return `${b.spoken}, ${b.serviceName}`;
}

export function readBack(slot: SpokenBooking, name: string, callerNumber: string): string {
  return `So that's ${bookingWords(slot)}, for ${name}, on ${spokenNumber(callerNumber)}. Shall I book that?`;
}

export function booked(b: SpokenBooking): string {
  return `You're booked in for ${bookingWords(b)}. Is there anything else I can help with?`;
}

export function moved(b: SpokenBooking): string {
  return `That's moved. You're now booked in for ${bookingWords(b)}. Is there anything else I can help with?`;
}

export function cancelled(b: SpokenBooking): string {
  return `That's cancelled: ${bookingWords(b)}. Is there anything else I can help with?`;
}

export function kept(b: SpokenBooking): string {
  return `Lovely, you're still booked in for ${bookingWords(b)}. Is there anything else I can help with?`;
}

export function existingBooking(b: SpokenBooking): string {
  return `I can see you're booked in for ${bookingWords(b)}. Would you like to keep it, move it, or cancel it?`;
}
