// The facts a draft's answer states, and whether each is in the sentence it cites. A caller
// acts on prices, times, numbers, days and places, so a draft with one of those the page's
// sentence does not hold is an invention and is dropped, whatever the model says. Facts are
// read into one form each ("£85", "85 pounds" and "£85.00" are one price; "6pm" and "18:00"
// one time) so a paraphrase that keeps the facts passes and one that changes them does not.

export interface Fact {
  kind: 'price' | 'time' | 'number' | 'day' | 'name';
  /** The fact in its one form: pence, minutes after midnight, the number, the day, the lowered word. */
  value: string;
  /** As the text wrote it, for the reason a draft was dropped. */
  said: string;
}

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_WORD = /\b(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)s?\b/gi;
const DAY_RANGE = new RegExp(`${DAY_WORD.source}\\s*(?:-|to|through|until|till)\\s*${DAY_WORD.source}`, 'gi');

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, hundred: 100 };

/** Words that open a sentence without naming anything: not taken for place or business names. */
const COMMON = new Set(
  'i a an the we our us you your yes no it its this that these those there they their he she please sorry thanks thank just all any each every most some for from in on at of to by with and or but if when while as so also call ring phone text email book open closed sure certainly absolutely of course yes great good hello hi ok okay unfortunately however currently normally usually typically generally what which who where how why'.split(' '),
);

const MONTHS = /^(january|february|march|april|may|june|july|august|september|october|november|december)$/;

const clean = (t: string) =>
  t
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019]/g, "'");

/** Minutes after midnight of "8am", "8.30 pm", "08:00", "18:00", "noon"; null for anything else. */
function minutesOf(h: string, m: string | undefined, ampm: string | undefined): number | null {
  let hour = Number(h);
  const min = m ? Number(m) : 0;
  if (min > 59 || hour > 23) return null;
  if (ampm) {
    if (hour < 1 || hour > 12) return null;
    const pm = ampm.toLowerCase().startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  return hour * 60 + min;
}

/**
 * The facts `text` states. Prices and times are taken out first so their digits are not also
 * read as bare numbers. Names are capitalised words not opening a sentence, and opening ones
 * that are not common openers ("Bristol and Bath are covered").
 */
export function factsOf(text: string): Fact[] {
  const facts: Fact[] = [];
  let rest = clean(text);
  const take = (re: RegExp, read: (m: RegExpExecArray) => Fact | null) => {
    rest = rest.replace(re, (...args) => {
      const m = args.slice(0, -2) as unknown as RegExpExecArray;
      const f = read(m);
      if (f) facts.push(f);
      return ' ';
    });
  };
  // UK phone numbers as one fact, before their digit groups read as numbers.
  take(/(?:\+44\s?|\b0)\d{2,4}[\s-]?\d{3,4}[\s-]?\d{3,4}\b/g, (m) => ({ kind: 'number', value: `tel:${m[0].replace(/\D/g, '').replace(/^44/, '0')}`, said: m[0] }));
  take(/£\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?(?:\s?(?:\+\s?vat|inc(?:l|luding)?\.?\s?vat))?/gi, (m) => price(m[1]!, m[2], m[0]));
  take(/\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?\s?(?:pounds|quid|gbp)\b/gi, (m) => price(m[1]!, m[2], m[0]));
  take(/\b(\d+)\s?p\b(?!\.?m)/gi, (m) => ({ kind: 'price', value: String(Number(m[1])), said: m[0] }));
  take(/\b(\d{1,2})(?:[:.](\d{2}))?\s?([ap])(?:\.m\.|\.?m)(?![a-z])/gi, (m) => time(minutesOf(m[1]!, m[2], m[3]), m[0]));
  take(/\b(\d{1,2}):(\d{2})\b/g, (m) => time(minutesOf(m[1]!, m[2], undefined), m[0]));
  take(/\b(noon|midday)\b/gi, (m) => time(12 * 60, m[0]));
  take(DAY_RANGE, (m) => {
    const from = dayIndex(m[1]!);
    const to = dayIndex(m[2]!);
    for (let d = from; ; d = (d + 1) % 7) {
      facts.push({ kind: 'day', value: DAYS[d]!, said: m[0] });
      if (d === to) break;
    }
    return null;
  });
  take(/\b(weekdays?)\b/gi, (m) => {
    for (const d of DAYS.slice(0, 5)) facts.push({ kind: 'day', value: d, said: m[0] });
    return null;
  });
  take(/\b(weekends?)\b/gi, (m) => {
    for (const d of DAYS.slice(5)) facts.push({ kind: 'day', value: d, said: m[0] });
    return null;
  });
  take(DAY_WORD, (m) => ({ kind: 'day', value: DAYS[dayIndex(m[1]!)]!, said: m[0] }));
  // Postcode districts (BS1, BS16 4QG) carry digits but are places.
  take(/\b([A-Z]{1,2}\d{1,2}[A-Z]?)(?:\s\d[A-Z]{2})?\b/g, (m) => ({ kind: 'name', value: m[0].toLowerCase(), said: m[0] }));
  take(/\b\d+(?:\.\d+)?\b/g, (m) => ({ kind: 'number', value: String(Number(m[0])), said: m[0] }));
  take(new RegExp(`\\b(?:${Object.keys(NUMBER_WORDS).join('|')})\\b`, 'gi'), (m) => ({ kind: 'number', value: String(NUMBER_WORDS[m[0].toLowerCase()]), said: m[0] }));
  for (const sentence of rest.split(/(?<=[.!?:;])\s+|\n+/)) {
    const words = sentence.match(/[A-Za-z][A-Za-z'&-]*/g) ?? [];
    words.forEach((w, i) => {
      const word = w.replace(/'s$/i, '');
      const lower = word.toLowerCase();
      if (!/^[A-Z]/.test(word) || word === 'I' || MONTHS.test(lower)) return;
      if (i === 0 && COMMON.has(lower.replace(/'.*$/, ''))) return;
      facts.push({ kind: 'name', value: lower, said: word });
    });
  }
  return facts;
}

function price(pounds: string, pence: string | undefined, said: string): Fact {
  return { kind: 'price', value: String(Number(pounds.replace(/,/g, '')) * 100 + Number(pence ?? 0)), said };
}

function time(minutes: number | null, said: string): Fact | null {
  return minutes === null ? null : { kind: 'time', value: String(minutes), said };
}

function dayIndex(word: string): number {
  return DAYS.indexOf(word.slice(0, 3).toLowerCase() as (typeof DAYS)[number]);
}

/**
 * The answer's facts its quote does not hold; [] = grounded. A time may be in the quote as a
 * bare hour ("Sat 9-1" grounds "9am to 1pm"), a number as a price's pounds or a time's hour, a
 * name as any word of the quote (lowered): the quote is the page's own wording, not a list.
 */
export function factsNotIn(answer: string, quote: string): Fact[] {
  const q = factsOf(quote);
  const has = (kind: Fact['kind'], value: string) => q.some((f) => f.kind === kind && f.value === value);
  const quoteWords = new Set(clean(quote).toLowerCase().match(/[a-z][a-z'&-]*/g)?.map((w) => w.replace(/'s$/, '')) ?? []);
  return factsOf(answer).filter((f) => {
    switch (f.kind) {
      case 'price':
        return !has('price', f.value);
      case 'time': {
        const minutes = Number(f.value);
        if (has('time', f.value)) return false;
        if (minutes % 60) return true;
        const hour = minutes / 60;
        return !has('number', String(hour)) && !has('number', String(hour > 12 ? hour - 12 : hour));
      }
      case 'number':
        return !has('number', f.value) && !has('price', String(Number(f.value) * 100)) && !has('time', String(Number(f.value) * 60)) && !has('time', String((Number(f.value) + 12) * 60));
      case 'day':
        return !has('day', f.value);
      case 'name':
        return !quoteWords.has(f.value) && !has('name', f.value);
    }
  });
}

/** The facts of a text as one comparable key set (an owner's answer against a draft's). */
export function factKeys(text: string): Set<string> {
  return new Set(factsOf(text).filter((f) => f.kind !== 'name').map((f) => `${f.kind}:${f.value}`));
}
