// "In an hour", "in half an hour", "in 20 minutes": a wait from now, which the booking wish
// parser (core/booking/rules/wish.ts) does not read, since nobody books a plumber "in an hour".
// A call-back is asked for that way, so this small reader sits beside the call-back rules.

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  fifteen: 15, twenty: 20, thirty: 30, forty: 40, 'forty-five': 45, fifty: 50, 'a couple of': 2, 'a few': 3,
};
const AMOUNT = `(\\d{1,3}|${Object.keys(NUMBER_WORDS).sort((a, b) => b.length - a.length).join('|')})`;

/**
 * Minutes from now the caller asked to wait ("in an hour" → 60, "in half an hour" → 30, "in
 * 20 minutes" → 20, "in a couple of hours" → 120); undefined when they named no such wait.
 */
export function minutesFromNow(words: string): number | undefined {
  const text = ` ${words.toLowerCase().replace(/[,!?.]/g, ' ').replace(/\s+/g, ' ')} `;
  if (/\bin (?:about |around )?half an hour\b/.test(text)) return 30;
  if (/\bin (?:about |around )?(?:a|an|one) hour and a half\b/.test(text)) return 90;
  const m = text.match(new RegExp(`\\bin (?:about |around )?${AMOUNT} (minutes?|mins?|hours?|hrs?)\\b`));
  if (!m) return undefined;
  const amount = /^\d+$/.test(m[1]!) ? Number(m[1]) : NUMBER_WORDS[m[1]!]!;
  return m[2]!.startsWith('h') ? amount * 60 : amount;
}
