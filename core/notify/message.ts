import { cap } from '../../contract/cap.js';
import type { CallStatus, CallUrgency } from '../../contract/api.js';
import type { CallerTag, TransferOutcome } from '../../contract/call-handling.js';
import type { CallMode } from '../../contract/enums.js';
import { referenceLine } from '../followup/commands.js';

/** The parts of a call a notification is written from. */
export interface CallFacts {
  /** The call's id: the reference the owner replies with (DONE 41). */
  id?: number;
  status: CallStatus;
  mode: CallMode;
  fromNumber: string;
  createdAt: Date;
  transcription: string | null;
  aiSummary: string | null;
  /** Set by the summary step; an urgent call's text leads with "URGENT". */
  urgency?: CallUrgency | null;
  /** Call handling: a VIP's text leads with "VIP". */
  callerTag?: CallerTag | null;
  /** Set when the caller was offered to the owner's phone. */
  transferOutcome?: TransferOutcome | null;
  transferTalkSeconds?: number | null;
  /** What the agent booked on this call (issue 41), as the owner reads it: "Boiler service, Tue 3 Dec, 10:00". */
  booked?: string | null;
}

/** Why the owner did not take a put-through call, in the owner's own terms. */
export const TRANSFER_WORDS: Record<Exclude<TransferOutcome, 'connected'>, string> = {
  declined: 'you chose voicemail',
  'no-answer': 'no answer',
  busy: 'your line was busy',
  rejected: 'the call was rejected',
  failed: 'the call to you could not be placed',
};

/** A transcript quoted in a fallback text: about three SMS segments with the header. */
const TRANSCRIPT_QUOTE_CHARS = 320;

const londonTime = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });

export function callerLabel(fromNumber: string): string {
  return fromNumber.trim() || 'a withheld number';
}

/*
 * Typographic characters a model or a transcript may contain that are outside the GSM-7
 * alphabet: one of them switches the whole SMS to UCS-2, cutting each segment from 160 to
 * 70 characters (and multiplying the cost).
 */
const GSM_SUBSTITUTES: [RegExp, string][] = [
  [/[‘’‚′]/g, "'"],
  [/[“”„″]/g, '"'],
  [/[–—−]/g, '-'],
  [/…/g, '...'],
  [/[\u00a0\u2000-\u200b]/g, ' '],
];

export function toSmsText(text: string): string {
  return GSM_SUBSTITUTES.reduce((s, [re, to]) => s.replace(re, to), text);
}

/**
 * The one text the owner gets for a call. With a summary: the summary. Without one
 * (engines still down when their retries ran out): the transcript, or a note that the
 * summary follows in the call log, since no second text will be sent.
 */
export function notificationBody(c: CallFacts): string {
  // A caller with a number can be called back: the text says how to tell us it was done.
  const ref = c.id !== undefined && c.fromNumber.trim() ? ` ${referenceLine(c.id)}` : '';
  return toSmsText(composeBody(c) + ref);
}

function composeBody(c: CallFacts): string {
  const urgent = c.urgency === 'urgent' ? 'URGENT: ' : '';
  const vip = c.callerTag === 'vip' ? 'VIP: ' : '';
  const head = `${urgent}${vip}${callHeadline(c)} from ${callerLabel(c.fromNumber)} at ${londonTime.format(c.createdAt)}`;
  return `${head}${content(c)}${transferNote(c)}${c.booked ? ` Booked: ${c.booked}.` : ''}`;
}

function content(c: CallFacts): string {
  if (c.transferOutcome === 'connected') return `. You spoke for ${talkTime(c.transferTalkSeconds ?? 0)}.${c.aiSummary?.trim() ? ` ${c.aiSummary.trim()}` : ''}`;
  if (c.status === 'missed') return '. No message was left.';
  if (c.aiSummary?.trim()) return `: ${c.aiSummary.trim()}`;
  if (c.transcription?.trim()) return `. Message: "${cap(c.transcription.trim(), TRANSCRIPT_QUOTE_CHARS)}"`;
  return '. The transcript and summary will follow in your call log.';
}

/** A put-through the owner did not take: said after the message, so the summary comes first. */
function transferNote(c: CallFacts): string {
  if (!c.transferOutcome || c.transferOutcome === 'connected') return '';
  return ` (We tried to put them through: ${TRANSFER_WORDS[c.transferOutcome]}.)`;
}

export function talkTime(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m === 0 ? `${s} s` : `${m} min ${s} s`;
}

/** What happened, in words: the start of every message about a call (texts and e-mails). */
export function callHeadline(c: Pick<CallFacts, 'status' | 'mode' | 'transferOutcome'>): string {
  if (c.transferOutcome === 'connected') return 'Call put through to you';
  if (c.status === 'missed') return 'Missed call';
  if (c.status === 'answered' && c.mode === 'agent') return 'Call answered by your AI receptionist';
  return 'New voicemail';
}

/**
 * The owner's copy of a text meant for a team member (core/team/recipients.ts): it says whose
 * message it is, after the URGENT and VIP markers so those still lead.
 */
export function forPerson(body: string, name: string): string {
  const markers = /^(?:URGENT: |VIP: )*/.exec(body)![0];
  return toSmsText(`${markers}Message for ${name}: ${body.slice(markers.length)}`);
}

/**
 * The one-off alert when a caller rings again and again in a short time (see
 * core/notify/repeat-caller.ts): sent at once, before any summary, because a caller who
 * keeps ringing usually cannot wait for one.
 */
export function repeatCallerBody(fromNumber: string, count: number, windowMinutes: number, latest: Date): string {
  return toSmsText(`${callerLabel(fromNumber)} has called ${count} times in ${windowMinutes} minutes (latest at ${londonTime.format(latest)}). They may need you urgently.`);
}

const londonDay = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: '2-digit', month: '2-digit' });

/** The reminder about a caller still waiting to be rung back (core/notify/callback-reminders.ts). */
export function callbackReminderBody(c: { id: number; status: 'missed' | 'voicemail'; fromNumber: string; createdAt: Date }): string {
  const what = c.status === 'missed' ? 'missed call' : 'voicemail';
  return toSmsText(
    `Reminder: you have not called ${callerLabel(c.fromNumber)} back yet (${what} on ${londonDay.format(c.createdAt)} at ${londonTime.format(c.createdAt)}). ${referenceLine(c.id)}`,
  );
}
