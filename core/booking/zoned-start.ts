import { badRequest } from '../http/errors.js';

/**
 * A start the owner's console sent: ISO 8601 with its zone ("2026-12-03T10:00:00Z" or
 * "+00:00"), so an instant is never guessed from the server's own zone. A 400 saying so otherwise.
 */
export function zonedStart(raw: string, what = 'The new time'): number {
  const start = Date.parse(raw);
  if (!Number.isFinite(start) || !/[zZ]|[+-]\d\d:\d\d$/.test(raw)) throw badRequest(`${what} must be a date and time with its zone, e.g. 2026-12-03T10:00:00Z.`, { start: 'ISO 8601 with a zone' });
  return start;
}
