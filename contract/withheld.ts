/**
 * What trunks put in the caller id when the number is withheld. Asterisk leaves it empty
 * (pbx/call-session.ts then stores "anonymous"); carriers send "anonymous" (RFC 3323's
 * privacy URI), "withheld", "unavailable", "restricted", "private" or "unknown".
 * Compared trimmed and in lower case (core/calls/to-call-back.ts does the same in SQL).
 */
export const WITHHELD_CALLER_IDS: readonly string[] = ['', 'anonymous', 'withheld', 'unavailable', 'restricted', 'private', 'unknown'];
const WITHHELD = new Set(WITHHELD_CALLER_IDS);

export function isWithheldCaller(callerNumber: string | null | undefined): boolean {
  return WITHHELD.has((callerNumber ?? '').trim().toLowerCase());
}
