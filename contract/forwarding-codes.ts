// The codes an owner dials on their own phone to forward it to their appliance number, by the
// kind of line they have, for the console's picker on Phone Numbers. The spec's four codes
// (console/src/lib/forwarding.ts) stay as they are beside these. Pure data: each table cites
// where its codes come from.

export const LINE_TYPES = ['landline', 'virgin', 'mobile'] as const;
export type LineType = (typeof LINE_TYPES)[number];

interface ForwardingCodeRow {
  /** The condition, as the owner reads it. */
  label: string;
  set: string;
  check: string;
  cancel: string;
}

export interface LineCodes {
  type: LineType;
  /** The picker's name for the line. */
  name: string;
  rows: ForwardingCodeRow[];
  /** One code that cancels every kind of forwarding, when the network has one. */
  cancelAll?: string;
  /** What stops forwarding working on this line, in a sentence. */
  warning?: string;
}

/** A mobile's "when unanswered" ring delay: 5 to 30 seconds in steps of 5 (3GPP TS 22.082, Call Forwarding on No Reply). */
export const RING_DELAY = { min: 5, max: 30, step: 5, default: 20 } as const;

/** Whether `seconds` is a ring delay a mobile network takes. */
export function isRingDelay(seconds: number): boolean {
  return Number.isInteger(seconds) && seconds >= RING_DELAY.min && seconds <= RING_DELAY.max && seconds % RING_DELAY.step === 0;
}

// BT and the landlines on Openreach's exchanges that use BT's Call Diversion codes (TalkTalk,
// Sky, Post Office…). Source: BT's help, "How do I use Call Diversion?" (bt.com/help): switch on
// *21* / *67* / *61* + number + #, check *#21# / *#67# / *#61#, cancel #21# / #67# / #61#. A
// landline keypad cannot dial +, so the number goes in national format (0…).
const LANDLINE = (n: string): ForwardingCodeRow[] => [
  { label: 'All calls', set: `*21*${n}#`, check: '*#21#', cancel: '#21#' },
  { label: 'When unanswered', set: `*61*${n}#`, check: '*#61#', cancel: '#61#' },
  { label: 'When busy', set: `*67*${n}#`, check: '*#67#', cancel: '#67#' },
];

// Virgin Media's digital home phone. Source: Virgin Media's help and community pages on Call
// Divert (community.virginmedia.com, "Digital Landline Call Divert"): *21* + number + # diverts
// all calls, *#21# checks, #21# cancels; the number must be in national format (0…, never 44…),
// and Call Divert does not work while the line's free voicemail is on. Virgin Media documents no
// busy or unanswered divert codes, so only all calls is offered.
const VIRGIN = (n: string): ForwardingCodeRow[] => [{ label: 'All calls', set: `*21*${n}#`, check: '*#21#', cancel: '#21#' }];

// Mobiles on UK networks (EE, O2, Vodafone, Three and those on them): the GSM MMI codes of
// 3GPP TS 22.030 (Annex B: 21 all calls, 67 busy, 61 no reply, 62 not reachable, 002 all
// forwarding; **SC*number# registers, *#SC# asks, ##SC# erases; "when unanswered" takes the
// ring delay T as **61*number**T#, the empty field between being the basic service group).
// International format (+44…) works on every network and from abroad.
const MOBILE = (n: string, ringDelay: number): ForwardingCodeRow[] => [
  { label: 'All calls', set: `**21*${n}#`, check: '*#21#', cancel: '##21#' },
  { label: `When unanswered (after ${ringDelay} seconds)`, set: `**61*${n}**${ringDelay}#`, check: '*#61#', cancel: '##61#' },
  { label: 'When busy', set: `**67*${n}#`, check: '*#67#', cancel: '##67#' },
  { label: 'When unreachable (off or no signal)', set: `**62*${n}#`, check: '*#62#', cancel: '##62#' },
];

/** A UK number as E.164 (+44…) and as dialled nationally (0…), from either spelling, spaces and all. */
function ukSpellings(number: string): { e164: string; national: string } {
  const d = number.replace(/[^\d+]/g, '');
  const rest = d.startsWith('+44') ? d.slice(3) : d.startsWith('0044') ? d.slice(4) : d.startsWith('0') ? d.slice(1) : d.replace(/^\+/, '');
  return { e164: `+44${rest}`, national: `0${rest}` };
}

/**
 * The codes for forwarding a line of kind `type` to the appliance number `did` (any spelling);
 * `ringDelay` is a mobile's "when unanswered" delay in seconds (see RING_DELAY).
 */
export function lineCodes(type: LineType, did: string, ringDelay: number = RING_DELAY.default): LineCodes {
  const { e164, national } = ukSpellings(did);
  switch (type) {
    case 'landline':
      return { type, name: 'BT or another landline', rows: LANDLINE(national) };
    case 'virgin':
      return {
        type,
        name: 'Virgin Media landline',
        rows: VIRGIN(national),
        warning: 'Forwarding does not work while Virgin Media’s free voicemail is on: turn it off first.',
      };
    case 'mobile': {
      const delay = isRingDelay(ringDelay) ? ringDelay : RING_DELAY.default;
      return {
        type,
        name: 'Mobile',
        rows: MOBILE(e164, delay),
        cancelAll: '##002#',
        warning: `If your voicemail answers in less than ${delay} seconds, calls go to voicemail and are not forwarded: set a shorter ring delay or a longer voicemail timer.`,
      };
    }
  }
}
