/**
 * What trunks put in the caller id when the number is withheld. Asterisk leaves it empty
 * (pbx/call-session.ts then stores "anonymous"); carriers send "anonymous" (RFC 3323's
 * privacy URI), "withheld", "unavailable", "restricted", "private" or "unknown".
 */
const WITHHELD = new Set(['', 'anonymous', 'withheld', 'unavailable', 'restricted', 'private', 'unknown']);

export function isWithheldCaller(callerNumber: string | null | undefined): boolean {
  return WITHHELD.has((callerNumber ?? '').trim().toLowerCase());
}
