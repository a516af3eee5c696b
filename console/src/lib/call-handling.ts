import type { ApiCallLog } from '../../../contract/api';
import { WEEKDAYS, WEEKDAY_NAMES, type CallHandlingSettings, type CallerTag, type HolidayNation, type TransferOutcome, type WithheldPolicy } from '../../../contract/call-handling';
import { formatPhone } from '../../../contract/phone-display';
import type { BadgeTone } from '../components/ui';
import { formatMmSs } from './format';

// What the console says about call handling: the settings' choices and each call's tags.

export const DAY_LABELS = WEEKDAY_NAMES;

export const NATION_LABELS: Record<HolidayNation, string> = {
  'england-wales': 'England & Wales',
  scotland: 'Scotland',
  'northern-ireland': 'Northern Ireland',
};

export const WITHHELD_LABELS: Record<WithheldPolicy, string> = {
  normal: 'Answer them as usual',
  'message-only': 'Take a message only',
  refuse: 'Turn them away politely',
};

/** At most this many opening times a day (the server's rule too). */
export const SPANS_PER_DAY = 4;

const OUTCOME_LABELS: Record<TransferOutcome, string> = {
  connected: 'Put through',
  declined: 'Declined (sent to voicemail)',
  'no-answer': 'No answer',
  busy: 'Busy',
  rejected: 'Rejected',
  failed: 'Could not ring',
};

/** "Put through, talked 1:35", "No answer"; null when no transfer was tried. */
export function transferDetail(call: Pick<ApiCallLog, 'transferOutcome' | 'transferTalkSeconds'>): string | null {
  if (!call.transferOutcome) return null;
  const label = OUTCOME_LABELS[call.transferOutcome];
  return call.transferOutcome === 'connected' && call.transferTalkSeconds !== null ? `${label}, talked ${formatMmSs(call.transferTalkSeconds)}` : label;
}

const TAG_LABELS: Record<CallerTag, string> = { blocked: 'Blocked', 'withheld-refused': 'Withheld, refused', vip: 'VIP' };

export function callerTagLabel(tag: CallerTag): string {
  return TAG_LABELS[tag];
}

/** The call-handling badges a card shows, in this order (Urgent has its own badge already). */
export function callHandlingTags(call: Pick<ApiCallLog, 'callerTag' | 'transferOutcome'> & Partial<Pick<ApiCallLog, 'agentBusy' | 'agentStalled' | 'agentVoicemailReason' | 'testCall' | 'direction'>>): { label: string; tone: BadgeTone }[] {
  const tags: { label: string; tone: BadgeTone }[] = [];
  // The owner's own call from the console ("Call my line").
  if (call.testCall) tags.push({ label: 'Test call', tone: 'blue' });
  // The assistant rang this caller back as they asked (issue 56): not a call that came in.
  if (call.direction === 'call-back') tags.push({ label: 'Call-back by the assistant', tone: 'blue' });
  // The AI assistants were all busy: the caller left a voicemail instead.
  if (call.agentBusy) tags.push({ label: 'Agents busy', tone: 'gray' });
  // The engines stalled mid-conversation: the agent offered voicemail and the caller left a message.
  if (call.agentStalled) tags.push({ label: 'Agent stalled', tone: 'gray' });
  // Agent mode was off on the box for new calls (issue 60): the owner's own greeting and a voicemail.
  if (call.agentVoicemailReason === 'slow') tags.push({ label: 'Answered in voicemail mode: the assistant was too slow on this box', tone: 'gray' });
  if (call.agentVoicemailReason === 'model') tags.push({ label: 'Answered in voicemail mode: the language model was still downloading', tone: 'gray' });
  if (call.transferOutcome === 'connected') tags.push({ label: 'Transferred', tone: 'green' });
  if (call.callerTag === 'blocked') tags.push({ label: 'Blocked', tone: 'gray' });
  if (call.callerTag === 'withheld-refused') tags.push({ label: 'Withheld, refused', tone: 'gray' });
  if (call.callerTag === 'vip') tags.push({ label: 'VIP', tone: 'purple' });
  return tags;
}

/** "Open hours" / "Closed hours", or null on calls from before hours existed. */
export function periodLabel(period: ApiCallLog['period']): string | null {
  return period === 'open' ? 'Open hours' : period === 'closed' ? 'Closed hours' : null;
}

/**
 * The transfer field's example: an ordinary UK mobile that the box would dial, so copying the
 * example never meets "Calls are only put through to UK mobile and landline numbers" (07911 123456
 * is a Guernsey number; Ofcom's drama range 07700 900… is refused too). Checked against
 * dialRefusal in call-handling.test.ts.
 */
export const TRANSFER_EXAMPLE = '07400 123456';

/**
 * The fields a save sends: only what the owner changed since the last save. The server keeps what
 * is left out, so a stored value the rules now refuse (a number saved before a rule) blocks only
 * a save that touches it, never business hours or the withheld policy.
 */
export function changedFields<T extends Record<string, unknown>>(form: T, saved: T): Partial<T> {
  return Object.fromEntries(Object.entries(form).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(saved[k]))) as Partial<T>;
}

/** What closed hours are answered with, as the Closed hours select names it. */
export const CLOSED_MODE_LABELS: Record<CallHandlingSettings['closedMode'], string> = { voicemail: 'Voicemail Only', agent: 'AI Voice Agent' };

type Summarised = Pick<CallHandlingSettings, 'transferTimeoutSeconds' | 'hoursEnabled' | 'holidayNations' | 'closedMode' | 'withheld' | 'blockList' | 'vipList'> & {
  transferNumber: string;
  /** A day left out is closed, as the form sends it. */
  hours: Partial<CallHandlingSettings['hours']>;
};

/**
 * One line per Call handling section saying what is set now (unsaved edits included): a closed
 * section on a phone shows it instead of its fields (issue 44).
 */
export function handlingSummaries(s: Summarised, transfersAvailable: boolean) {
  const number = s.transferNumber.trim();
  const openDays = WEEKDAYS.filter((d) => (s.hours[d] ?? []).length > 0).length;
  const nations = s.holidayNations.map((n) => NATION_LABELS[n]).join(', ');
  const lists = s.blockList.length + s.vipList.length;
  return {
    transfer: !transfersAvailable ? 'Not available yet.' : number ? `Put through to ${formatPhone(number)}, ring for ${s.transferTimeoutSeconds} s` : 'No number to put calls through to yet',
    hours: s.hoursEnabled
      ? `On: open ${openDays} ${openDays === 1 ? 'day' : 'days'} a week, ${nations ? `bank holidays of ${nations}` : 'no bank holidays'}`
      : 'Off: every call is handled as open hours',
    answering: `Closed hours: ${CLOSED_MODE_LABELS[s.closedMode]}. Withheld: ${WITHHELD_LABELS[s.withheld].toLowerCase()}`,
    lists: lists === 0 ? 'No numbers yet.' : `${s.blockList.length} blocked, ${s.vipList.length} VIP`,
  };
}
