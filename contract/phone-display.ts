// The part of the phone module (contract/phone.ts) that needs no libphonenumber-js metadata:
// SPEC.md §9's display formats, and the phone-number search's matching once the query is read. Every console
// screen shows numbers; only a phone-number search needs the parser, loaded on demand.

const NA = 'N/A';
const digits = (s: string) => s.replace(/\D/g, '');

/** Customer screens: +CC XXX XXX XXXX (a 12-digit E.164 number); anything else as given; nothing → N/A. */
export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return NA;
  const m = /^(\d{2})(\d{3})(\d{3})(\d{4})$/.exec(digits(phone));
  return m ? `+${m[1]} ${m[2]} ${m[3]} ${m[4]}` : phone;
}

/** Admin numbers table: +CC XXXX XXX XXX(X). */
export function formatAdminPhone(phone: string | null | undefined): string {
  if (!phone) return NA;
  const m = /^(\d{2})(\d{4})(\d{3})(\d{3,4})$/.exec(digits(phone));
  return m ? `+${m[1]} ${m[2]} ${m[3]} ${m[4]}` : phone;
}

/**
 * A UK landline (geographic, 01/02), in any spelling: it takes calls but not texts, so call
 * texts and their confirmation code go to a mobile instead (issue 57 item 6). Metadata-free,
 * so the first-run checklist can tell without loading the parser.
 */
export function isUkLandline(input: string | null | undefined): boolean {
  return !!input && /^(?:\+44|0044|0)[12]\d{8,9}$/.test(input.replace(/[^\d+]/g, ''));
}

// Digits with the punctuation people type between them; nothing else.
const PHONE_QUERY = /^[\d\s()+.-]+$/;

/** A search made only of digits and phone punctuation ("+44 770 090 0382", "07700 9"). */
export function looksLikePhoneQuery(text: string): boolean {
  const q = text.trim();
  return PHONE_QUERY.test(q) && /\d/.test(q);
}

export interface PhoneQuery {
  /** The query's digits, for a part of a number typed as shown ("770 090 0382"). */
  digits: string;
  /** The digits of the E.164 prefix the query stands for ("07700 9" → 4477009); phone.ts's phoneQuery reads it. */
  prefix: string;
}

/** A stored (E.164) number matches a phone query on its digits, in any spelling. */
export function matchesPhoneQuery(stored: string | null | undefined, query: PhoneQuery): boolean {
  if (!stored) return false;
  const d = digits(stored);
  if (!d) return false;
  return d.includes(query.digits) || (query.prefix.length > 0 && d.startsWith(query.prefix));
}
