// What a text field may hold. Pure: no I/O.
//
// Control characters and Unicode's text-direction controls are never typed by a person on
// purpose, and they let stored text disguise itself: an e-mail address with U+202E (RIGHT-TO-
// LEFT OVERRIDE) reads backwards in the admin's approvals list, a NUL cuts a string short in
// SMS gateways and CSV tools, a line break in a business name breaks the e-mail subject and the
// SMS header it is put in. Tabs and line breaks are text only where the console offers several
// lines (knowledge base, greeting, answers): those schemas say `multiline: true`. Text another party
// wrote and the box must keep (a caller's SMS from Twilio) says `verbatim: true`: it is cleaned
// where it is stored (withoutInvisibles), never refused.

export type TextKind = 'line' | 'multiline';

// C0 controls but tab, line feed and carriage return; DEL and the C1 controls.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;
// LRE, RLE, PDF, LRO, RLO (U+202A–U+202E) and LRI, RLI, FSI, PDI (U+2066–U+2069).
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
// A UTF-16 half without its partner: JSON's "\ud800" escape makes one; it is not text.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const codePoint = (ch: string) => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Why `text` is not acceptable in a field of this kind, as the end of a sentence that starts
 * with the field's name ("must not contain control characters (U+0000)"), or null when it is.
 */
export function textProblem(text: string, kind: TextKind): string | null {
  let m = CONTROL.exec(text);
  if (m) return `must not contain control characters (${codePoint(m[0])})`;
  if (kind === 'line' && (m = LINE_BREAK_OR_TAB.exec(text))) return `must be a single line without tabs (${codePoint(m[0])})`;
  if ((m = BIDI_CONTROL.exec(text))) return `must not contain text-direction control characters (${codePoint(m[0])})`;
  if ((m = LONE_SURROGATE.exec(text))) return `must be valid Unicode text (${codePoint(m[0])})`;
  return null;
}

// Characters with no glyph that a caller's text may carry, to reorder or hide what the owner
// reads: C0 controls but tab and line breaks, DEL and C1; soft hyphen; the Arabic letter mark
// and Mongolian vowel separator; zero-width space; LRM and RLM; the bidi embeddings, overrides
// and isolates; word joiner, invisible operators and the deprecated format controls; the BOM;
// the interlinear annotation marks. ZWJ and ZWNJ stay: emoji sequences and scripts need them.
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/g;
// Unicode tag characters hide ASCII from the eye; they are kept only inside a flag (England's 🏴 + tags + cancel tag).
const TAGS = /(\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F})|[\u{E0000}-\u{E007F}]/gu;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Text someone else wrote (a caller's SMS), made fit to store and show: what would hide or
 * reorder it is removed and a broken UTF-16 half becomes U+FFFD, so the text is kept rather
 * than refused and lost (issue 53). Pure.
 */
export function withoutInvisibles(text: string): string {
  return text.replace(INVISIBLE, '').replace(TAGS, (_m, flag?: string) => flag ?? '').replace(LONE_SURROGATES, '\uFFFD');
}
