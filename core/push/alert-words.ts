import { formatPhone } from '../../contract/phone-display.js';
import { isWithheldCaller } from '../../contract/withheld.js';

// The words of a push alert (issue 54): the notification's title and body, in one place.

/** A notification's body is cut here: lock screens show two or three lines at most. */
const MAX_BODY = 180;

/** The caller as the console names them: a name when the box has one, else the number as shown on Call Logs. */
export function alertTitle(callerNumber: string | null, callerName?: string | null): string {
  const name = callerName?.trim();
  if (name) return name;
  if (!callerNumber || isWithheldCaller(callerNumber)) return 'Withheld number';
  return formatPhone(callerNumber);
}

/** The first line of a summary (its first sentence when it is one long line), without trailing space. */
export function firstLine(text: string | null | undefined): string {
  const line = (text ?? '').split(/\r?\n/).map((l) => l.trim()).find(Boolean) ?? '';
  return line;
}

/**
 * The alert's body: the summary's first line, "Urgent: " in front when the call is urgent, and
 * `fallback` (e.g. "New voicemail") when there is no summary yet. Cut at a word to fit a lock screen.
 */
export function alertBody(summary: string | null | undefined, urgent: boolean, fallback: string): string {
  const line = firstLine(summary) || fallback;
  const text = urgent ? `Urgent: ${line}` : line;
  if (text.length <= MAX_BODY) return text;
  const cut = text.slice(0, MAX_BODY - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_BODY / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** What an alert says before a summary exists, by how the call ended. */
export function callFallbackWords(status: string, mode: string): string {
  if (status === 'missed') return 'Missed call';
  if (status === 'voicemail') return 'New voicemail';
  return mode === 'agent' ? 'Call answered by your assistant' : 'New call';
}

/** The live alert's body: an agent call in progress flagged urgent. */
export function liveUrgentBody(reason: string | null | undefined): string {
  const why = reason?.trim();
  return alertBody(why ? `Call in progress: ${why}` : 'Call in progress', true, 'Call in progress');
}
