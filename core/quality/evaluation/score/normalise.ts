// Text normalisation for scoring: a reference and an engine's output are compared as
// lower-case words with every number written as one run of digits, so "oh seven seven
// double oh nine double oh one two three", "07700 900123" and "+44 7700 900123" are the
// same token, as are "forty five pounds" and "£45". Pure: the scoring's unit tests pin it.

const DIGIT_WORDS: Record<string, number> = {
  zero: 0, nought: 0, oh: 0, o: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
};
const TEENS: Record<string, number> = {
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const REPEAT: Record<string, number> = { double: 2, triple: 3 };

/** "oh" and "o" are digits only beside another number word ("oh seven"), never alone ("Oh, hello"). */
const AMBIGUOUS_ZERO = new Set(['oh', 'o']);

const isNumberWord = (w: string) => w in DIGIT_WORDS || w in TEENS || w in TENS || /^\d+$/.test(w);

/** Written forms that say the same as spoken ones, before splitting into words. */
function rewrite(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      // "£45.50" is said "forty five pounds fifty"; "£45" "forty five pounds".
      .replace(/£\s?(\d[\d,]*)(?:\.(\d\d))?/g, (_m, p: string, d?: string) => ` ${p.replace(/,/g, '')} pounds ${d && d !== '00' ? d : ''} `)
      .replace(/(\d),(\d{3})\b/g, '$1$2')
      // A UK number in international form is the same number as its national form.
      .replace(/\+\s?44\s?\(?0?\)?\s?(\d)/g, ' 0$1')
      // "3:30" is said "three thirty".
      .replace(/(\d)[:.](\d\d)\b/g, '$1 $2')
      .replace(/\b([ap])\.\s?m\b\.?/g, '$1m')
      .replace(/(\d)\s?([ap]m)\b/g, '$1 $2')
      .replace(/o'clock/g, 'oclock')
      // O'Brien, Mary-Jane, don't: one word each, as a listener hears them.
      .replace(/(\w)['’](\w)/g, '$1$2')
      .replace(/(\d)(?:st|nd|rd|th)\b/g, '$1')
      .replace(/-/g, ' ')
  );
}

/**
 * The words of `text`, lower case, punctuation gone, each number one token of digits.
 * Adjacent number words make one number ("seven seven" → "77", "forty five" → "45",
 * "nine hundred one two three" → "900123", "three hundred and five" → "305").
 */
export function normaliseWords(text: string): string[] {
  const words = rewrite(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    const end = numberRunEnd(words, i);
    if (end > i) {
      out.push(readNumberRun(words.slice(i, end)));
      i = end;
    } else {
      // "a m" said after a number is the time's "am".
      if (words[i] === 'a' && words[i + 1] === 'm' && /^\d+$/.test(out.at(-1) ?? '')) {
        out.push('am');
        i += 2;
        continue;
      }
      if (words[i] === 'p' && words[i + 1] === 'm' && /^\d+$/.test(out.at(-1) ?? '')) {
        out.push('pm');
        i += 2;
        continue;
      }
      out.push(words[i]!);
      i++;
    }
  }
  return out;
}

/** Where the run of number words starting at `from` ends (`from` itself when there is none). */
function numberRunEnd(words: string[], from: number): number {
  let i = from;
  let numeric = 0;
  for (;;) {
    const w = words[i];
    if (w === undefined) break;
    if (w in REPEAT && words[i + 1] !== undefined && isNumberWord(words[i + 1]!)) {
      i++;
      continue;
    }
    if (isNumberWord(w)) {
      if (!AMBIGUOUS_ZERO.has(w)) numeric++;
      i++;
      continue;
    }
    if ((w === 'hundred' || w === 'thousand') && i > from) {
      i++;
      continue;
    }
    // "three hundred and five": "and" belongs to the number only right after "hundred".
    if (w === 'and' && words[i - 1] === 'hundred' && i > from && words[i + 1] !== undefined && isNumberWord(words[i + 1]!)) {
      i++;
      continue;
    }
    break;
  }
  // A run of nothing but "oh"s is an exclamation, not a number.
  if (numeric === 0) {
    const zeros = words.slice(from, i).filter((w) => AMBIGUOUS_ZERO.has(w)).length;
    if (zeros < 2 || zeros === i - from) return from;
  }
  return i;
}

interface Piece {
  text: string;
  /** A tens word waiting for its unit ("forty" before "five"), or a hundred waiting for "and …". */
  open?: 'tens' | 'hundred';
}

/** The digits a run of number words says, pieces joined as a caller's digits are. */
function readNumberRun(run: string[]): string {
  const pieces: Piece[] = [];
  let repeat = 1;
  let afterAnd = false;
  for (const w of run) {
    const last = pieces.at(-1);
    if (w in REPEAT) {
      repeat = REPEAT[w]!;
      continue;
    }
    if (w === 'and') {
      afterAnd = true;
      continue;
    }
    if (w === 'hundred' || w === 'thousand') {
      const mult = w === 'hundred' ? 100 : 1000;
      if (last && /^\d+$/.test(last.text)) {
        last.text = String(Number(last.text) * mult);
        last.open = w === 'hundred' ? 'hundred' : undefined;
      }
      continue;
    }
    if (w in DIGIT_WORDS || /^\d$/.test(w)) {
      const d = w in DIGIT_WORDS ? DIGIT_WORDS[w]! : Number(w);
      if (last?.open === 'tens') {
        last.text = String(Number(last.text) + d);
        last.open = undefined;
      } else if (last?.open === 'hundred' && afterAnd) {
        last.text = String(Number(last.text) + d);
        last.open = undefined;
      } else {
        for (let k = 0; k < repeat; k++) pieces.push({ text: String(d) });
      }
    } else if (w in TEENS || w in TENS) {
      const n = TEENS[w] ?? TENS[w]!;
      if (last?.open === 'hundred') {
        // "nine hundred and twelve", and "nine hundred twelve" as people say it.
        last.text = String(Number(last.text) + n);
        last.open = w in TENS ? 'tens' : undefined;
      } else {
        pieces.push({ text: String(n), open: w in TENS ? 'tens' : undefined });
      }
    } else {
      for (let k = 0; k < repeat; k++) pieces.push({ text: w });
    }
    repeat = 1;
    afterAnd = false;
    if (last && last !== pieces.at(-1) && last.open === 'tens') last.open = undefined;
  }
  return pieces.map((p) => p.text).join('');
}

/** A normalised word that is a number (every digit run, however it was said). */
export const isNumberToken = (w: string) => /^\d+$/.test(w);

/** Whether `phrase` (normalised the same way) occurs in `words` as consecutive words. */
export function containsPhrase(words: string[], phrase: string): boolean {
  const p = normaliseWords(phrase);
  if (p.length === 0) return true;
  for (let i = 0; i + p.length <= words.length; i++) {
    if (p.every((w, k) => words[i + k] === w)) return true;
  }
  return false;
}
