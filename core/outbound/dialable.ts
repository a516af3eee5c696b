import { parsePhoneNumberFromString, type PhoneNumberType } from 'libphonenumber-js/max';
import { isUkLandline, nationalFormat } from '../../contract/phone.js';

// Toll fraud: the operator's trunk pays for every call the appliance places, so a number an
// owner saves is dialled only when it is an ordinary UK mobile or landline. The full metadata
// (`max`, server side only: the console never needs it) knows each range's type; `min`
// (contract/phone.ts) knows only lengths, so it would pass 0909… and +882… alike.

/** Why a number is not dialled, in words an owner reads after "it is". */
const TYPE_WORDS: Partial<Record<PhoneNumberType, string>> = {
  PREMIUM_RATE: 'a premium-rate number (09…, 087…)',
  PERSONAL_NUMBER: 'a personal number (070…), which can be forwarded anywhere at the caller’s cost',
  SHARED_COST: 'a shared-cost number (084…)',
  UAN: 'a non-geographic number (03…, 05…)',
  TOLL_FREE: 'a freephone number (080…)',
  VOIP: 'an internet-phone number (056…)',
  PAGER: 'a pager number (076…)',
  VOICEMAIL: 'a voicemail access number',
};

const DIALLED_TYPES: ReadonlySet<PhoneNumberType> = new Set(['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE']);

/** OUTBOUND_ALLOW: E.164 prefixes the operator has chosen to dial whatever their type. */
export type OutboundAllowList = readonly string[];

/**
 * Null when the appliance may dial `number` (any spelling; UK without a country code); else
 * the sentence saying why not. An operator's allow-list entry wins over every rule.
 */
export function dialRefusal(number: string, allow: OutboundAllowList): string | null {
  const why = whyNotReached(number, allow);
  return why ? `Calls are only put through to UK mobile and landline numbers: this is ${why}. Your operator can allow it.` : null;
}

/**
 * The same rule for texts the appliance sends at the operator's cost to a number an owner
 * typed (a confirmation code): a satellite, premium or foreign number is refused as a call to
 * it would be, so the code form cannot be used to run up the operator's SMS bill.
 */
export function textRefusal(number: string, allow: OutboundAllowList): string | null {
  const why = whyNotReached(number, allow);
  if (why) return `Codes are only texted to UK mobile numbers: this is ${why}. Your operator can allow it.`;
  return !allowListed(number, allow) && isUkLandline(number) ? landlineTextsRefusal(number) : null;
}

/**
 * A landline takes calls but no texts (issue 57 item 6): a code texted there would never
 * arrive, and neither would the call texts it confirms, so the owner is asked for a mobile.
 */
function landlineTextsRefusal(number: string): string {
  return `Call texts go to a mobile: ${nationalFormat(number) ?? number} is a landline, and landlines cannot receive texts. Enter the mobile you want call texts on.`;
}

/** Why the appliance does not reach `number` (words after "this is"), or null when it does. */
function whyNotReached(number: string, allow: OutboundAllowList): string | null {
  if (allowListed(number, allow)) return null;
  return refusalReason(parsePhoneNumberFromString(number, { defaultCountry: 'GB', extract: false }));
}

/** An operator's OUTBOUND_ALLOW entry wins over every rule. */
function allowListed(number: string, allow: OutboundAllowList): boolean {
  const parsed = parsePhoneNumberFromString(number, { defaultCountry: 'GB', extract: false });
  return Boolean(parsed && allow.some((prefix) => parsed.number.startsWith(prefix)));
}

function refusalReason(parsed: ReturnType<typeof parsePhoneNumberFromString>): string | null {
  if (!parsed) return 'not a phone number';
  if (parsed.countryCallingCode !== '44') return 'an international number';
  // +44 also numbers Jersey, Guernsey and the Isle of Man, which UK tariffs price as abroad.
  if (parsed.country && parsed.country !== 'GB') return 'a Channel Islands or Isle of Man number';
  if (!parsed.isValid()) return 'not a UK number in service';
  const type = parsed.getType();
  if (type && DIALLED_TYPES.has(type)) return null;
  return (type && TYPE_WORDS[type]) ?? 'not a mobile or landline number';
}
