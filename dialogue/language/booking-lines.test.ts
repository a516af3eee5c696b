import { describe, expect, it } from 'vitest';
import { LANGUAGE_VOICES, type Script } from '../../models/tts/index.js';
import { BOOKING_LINES, bookingSpeech, type BookingSpeech } from './booking-lines.js';
import { ENGLISH_NAMES, LANGUAGES } from './languages.js';

// Issue 41 with issue 42: the booking walk's lines in every language a caller may be answered in.

const SCRIPT_LETTERS: Record<Script, RegExp> = {
  Latin: /\p{Script=Latin}/u,
  Arabic: /\p{Script=Arabic}/u,
  Gurmukhi: /\p{Script=Gurmukhi}/u,
};
/** The share of a text's letters in `script`. */
function shareIn(script: Script, text: string): number {
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  return letters.filter((c) => SCRIPT_LETTERS[script].test(c)).length / letters.length;
}

const OTHERS = LANGUAGES.filter((l) => l !== 'en');
// 10:00 in London on Tuesday 1 December 2026 (GMT) and on Wednesday 1 July 2026 (BST).
const WINTER = { start: new Date('2026-12-01T10:00:00Z'), spoken: "Tuesday the 1st of December at ten o'clock", serviceName: 'boiler service' };
const SUMMER = { start: new Date('2026-07-01T09:00:00Z'), spoken: "Wednesday the 1st of July at ten o'clock", serviceName: 'boiler service' };
const LATER = { start: new Date('2026-12-01T11:30:00Z'), spoken: "Tuesday the 1st of December at half past eleven", serviceName: 'boiler service' };

/** Every line and template of a language, with the owner's and caller's own words (service, name) left out. */
function everything(s: BookingSpeech): string[] {
  const strip = (t: string) => t.replaceAll('boiler service', '').replaceAll('Sam Jones', '');
  return [
    ...Object.values(s.lines),
    s.offerTimes([WINTER]),
    s.offerTimes([WINTER, LATER, SUMMER]),
    s.whichService([{ name: 'boiler service' }, { name: 'boiler service' }]),
    s.readBack(WINTER, 'Sam Jones', '+447700900555'),
    s.booked(WINTER),
    s.moved(WINTER),
    s.cancelled(WINTER),
    s.kept(WINTER),
    s.existingBooking(WINTER),
  ].map(strip);
}

describe('the booking lines in every language (issues 41 and 42)', () => {
  it.each(OTHERS)('%s has every booking line, written for it rather than left in English, in its script', (lang) => {
    const s = bookingSpeech(lang);
    const english = bookingSpeech('en');
    expect(Object.keys(s.lines).sort()).toEqual(Object.keys(BOOKING_LINES).sort());
    for (const [key, line] of Object.entries(s.lines)) {
      expect(line, `${ENGLISH_NAMES[lang]} ${key}`).toMatch(/\S/);
      expect(line, `${ENGLISH_NAMES[lang]} ${key}`).not.toBe(BOOKING_LINES[key as keyof typeof BOOKING_LINES]);
    }
    expect(s.booked(WINTER)).not.toBe(english.booked(WINTER));
    const script = LANGUAGE_VOICES[lang]!.script;
    for (const line of everything(s)) expect(shareIn(script, line), line).toBe(1);
  });

  it.each(OTHERS)("%s says a booking's date and time as its locale does, at the London time either side of the clock change", (lang) => {
    const s = bookingSpeech(lang);
    for (const slot of [WINTER, SUMMER]) {
      const when = s.when(slot);
      expect(when).toMatch(/\b10:00\b/); // ten o'clock in London, GMT or BST
      expect(when).not.toMatch(/AM|PM|o'clock/);
      // The service and the number the caller gave are in the read-back, the time as this language says it.
      expect(s.readBack(slot, 'Sam Jones', '+447700900555')).toContain(when);
      expect(s.readBack(slot, 'Sam Jones', '+447700900555')).toContain('0 7 7 0 0, 9 0 0, 5 5 5');
    }
    // At most three times offered, soonest first, each said in this language.
    const offer = s.offerTimes([WINTER, LATER, SUMMER, SUMMER]);
    expect(offer.indexOf(s.when(WINTER))).toBeLessThan(offer.indexOf(s.when(LATER)));
    expect(offer.split(s.when(SUMMER))).toHaveLength(2);
  });

  it('the dates are the language\'s own words', () => {
    expect(bookingSpeech('pl').when(WINTER)).toBe('wtorek, 1 grudnia 10:00');
    expect(bookingSpeech('cy').when(WINTER)).toBe('Dydd Mawrth, 1 Rhagfyr am 10:00');
    expect(bookingSpeech('es').when(SUMMER)).toBe('miércoles, 1 de julio, 10:00');
    expect(bookingSpeech('pt').when(WINTER)).toBe('terça-feira, 1 de dezembro às 10:00');
    expect(bookingSpeech('ur').when(WINTER)).toBe('منگل، 1 دسمبر کو 10:00');
    expect(bookingSpeech('pa').when(WINTER)).toBe('ਮੰਗਲਵਾਰ, 1 ਦਸੰਬਰ 10:00');
  });

  it('English is the desk\'s own words, unchanged', () => {
    const en = bookingSpeech('en');
    expect(en.lines).toBe(BOOKING_LINES);
    expect(en.when(WINTER)).toBe(WINTER.spoken);
    expect(en.booked(WINTER)).toBe("You're booked in for Tuesday the 1st of December at ten o'clock, boiler service. Is there anything else I can help with?");
  });
});
