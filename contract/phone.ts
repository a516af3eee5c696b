// The one phone-number module, shared by the server and the console: any spelling a UK
// owner, trunk or caller uses → E.164 (what is stored), SPEC.md §9's display formats, and
// the phone-number search. libphonenumber-js does the parsing.
//
// Its `min` metadata (country codes, national prefixes, possible lengths: ~80 KB raw, kept
// out of the landing page's chunk) is all this needs. `max` adds number-type patterns for
// isValid()/getNumberType(), which would refuse Ofcom's drama range 07700 900xxx that
// owners and tests use and would double the console's share; SPEC's display formats are
// fixed digit groupings, not libphonenumber's national formats.
import { AsYouType, parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/min';
import { looksLikePhoneQuery, type PhoneQuery } from './phone-display.js';

// The display formats and the search's shape test need no metadata; they live apart so a
// console screen that only shows numbers does not download libphonenumber-js.
export { formatAdminPhone, formatPhone, isUkLandline, matchesPhoneQuery, type PhoneQuery } from './phone-display.js';

/** The product serves UK businesses: a number without a country code is a UK number. */
const DEFAULT_COUNTRY = 'GB';

function parse(input: string): PhoneNumber | undefined {
  // extract: false: the whole text must be the number ("call me on 07700…" is not one).
  const parsed = parsePhoneNumberFromString(input, { defaultCountry: DEFAULT_COUNTRY, extract: false });
  return parsed?.isPossible() ? parsed : undefined;
}

/**
 * Any spelling in E.164: "07700 900123", "+44 (0)7700 900123", "0044 7700 900123" and
 * "447700900123" all become +447700900123. Null when it cannot be a phone number.
 */
export function toE164(input: string | null | undefined): string | null {
  if (!input) return null;
  return parse(input)?.number ?? null;
}

/** Already in E.164, exactly as written (config lists, provider numbers). */
export function isE164(input: string): boolean {
  return toE164(input) === input;
}

/**
 * A caller or dialled number as it is stored on a call: E.164 when the trunk sent a
 * number in any spelling, else what it sent ("anonymous", a SIP user), trimmed.
 */
export function storedNumber(raw: string): string {
  return toE164(raw) ?? raw.trim();
}

/**
 * The spellings one number may have been stored under before numbers were normalised
 * (E.164, 44…, 0044…, the national 0… form, spaced or not), for matching legacy rows in
 * SQL without parsing every row. Empty when the input is not a number.
 */
export function spellingsOf(input: string): string[] {
  const n = parse(input);
  if (!n) return [];
  const intl = n.number.slice(1);
  const national = n.formatNational();
  const spaced = n.formatInternational();
  return [...new Set([n.number, intl, `00${intl}`, national, national.replace(/\D/g, ''), spaced])];
}

const digits = (s: string) => s.replace(/\D/g, '');

/**
 * A search that looks like (the start of) a phone number, in any UK spelling: 07…, +44…,
 * 0044…, spaced or not. Null for any other text. Typing is partial, so AsYouType reads it.
 */
export function phoneQuery(text: string): PhoneQuery | null {
  if (!looksLikePhoneQuery(text)) return null;
  const q = text.trim();
  const typed = new AsYouType(DEFAULT_COUNTRY);
  typed.input(q);
  return { digits: digits(q), prefix: digits(typed.getNumberValue() ?? '') };
}

/** The number as dialled within its country, grouped ("07911 123456"); null when it is not a number. */
export function nationalFormat(input: string): string | null {
  return parse(input)?.formatNational() ?? null;
}

/** The national form without spaces ("07911123456"), for trunks that want it; the input itself when it is not a number. */
export function nationalDigits(input: string): string {
  return nationalFormat(input)?.replace(/\D/g, '') ?? input;
}

/**
 * A UK mobile that can take a text: +447 then 9 digits, except Ofcom's 070 personal numbers
 * and 076 pagers (07624, the Isle of Man's mobiles, is one). Landlines (01/02), 03, 08 and
 * anything abroad are not. Any spelling; null/withheld is not.
 * https://www.ofcom.org.uk/phones-and-broadband/phone-numbers/numbering/
 */
export function isUkMobile(input: string | null | undefined): boolean {
  const n = toE164(input);
  return !!n && /^\+447(?:[1-57-9]\d{8}|624\d{6})$/.test(n);
}

