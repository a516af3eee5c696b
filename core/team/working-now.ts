import type { CallHandlingSettings } from '../../contract/call-handling.js';
import { periodAt } from '../call-handling/schedule.js';

/**
 * Whether a team member is working at `now` (London time): inside their own hours, or the
 * business's opening hours when they have none; a bank holiday the business keeps is a day
 * off for everyone. Pure: the caller passes the business's call handling it already read.
 */
export function isWorking(
  member: { hours: CallHandlingSettings['hours'] | null },
  business: Pick<CallHandlingSettings, 'hoursEnabled' | 'hours' | 'holidayNations'>,
  now: Date,
): boolean {
  const hours = member.hours
    ? { hoursEnabled: true, hours: member.hours, holidayNations: business.holidayNations }
    : business;
  return periodAt(hours, now) === 'open';
}
