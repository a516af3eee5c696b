// How long the caller's silence must last before their turn is over, decided from what
// they said so far (the speculative transcript). Pure, so every rule is unit-tested.
//
// People leave the floor with a finished question, statement or closing phrase, and keep it
// with a hesitation ("um"), a dangling word ("and", "for") or a number still being read
// out. A fixed wait is too slow for the first and too quick for the second. Committing a
// little early is safe: a caller who carries on holds the agent's reply (conversation.ts)
// and their words join the next turn; answering half a sentence aloud is what must not happen.

export interface EndOfTurnConfig {
  /** A finished question, statement or closing phrase. */
  completeMs: number;
  /** Nothing tells either way (no words, an unpunctuated question). */
  defaultMs: number;
  /** The caller is plainly not done: a hesitation, a dangling word, a number being read out. */
  holdMs: number;
}

export const DEFAULT_END_OF_TURN: EndOfTurnConfig = { completeMs: 500, defaultMs: 700, holdMs: 1400 };

export type TurnEnding = 'complete' | 'neutral' | 'hold';

const HESITATIONS = new Set(['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'ah', 'hmm', 'mm']);

/** Words an English sentence hardly ever ends on: conjunctions, prepositions, articles, possessives. */
const DANGLING = new Set([
  'and', 'or', 'but', 'because', 'cos', 'if', 'than', 'the', 'a', 'an', 'to', 'of', 'for', 'with', 'at', 'on', 'in',
  'from', 'by', 'about', 'into', 'plus', 'my', 'your', 'our', 'their', "i'm", "it's", "we're",
]);

const NUMBER_WORDS = new Set([
  'zero', 'oh', 'nought', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
  'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty',
  'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'thousand', 'double', 'triple',
]);

const QUESTION_STARTS = new Set([
  'what', "what's", 'when', 'where', 'who', 'why', 'how', 'which', 'do', 'does', 'did', 'can', 'could', 'would',
  'will', 'is', 'are', 'have', 'has', 'should', 'may', 'am',
]);

const CLOSING = /\b(thank you|thanks|cheers|goodbye|bye|that'?s all|that'?s it|that'?s everything|no,? that'?s fine)\W*$/i;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[“”"]/g, '')
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, ''))
    .filter(Boolean);
}

const isNumber = (w: string) => /^\d[\d,.]*$/.test(w) || NUMBER_WORDS.has(w);

/** Reads the transcript so far: is the caller done, plainly not done, or can we not tell? */
export function turnEnding(transcript: string): TurnEnding {
  const text = transcript.trim();
  const w = words(text);
  const last = w.at(-1);
  if (!last) return 'neutral';
  if (HESITATIONS.has(last)) return 'hold';
  // A trailing comma, dash or ellipsis is Whisper hearing the voice stay up.
  if (/(,|-|–|—|\.\.\.|…)$/.test(text)) return 'hold';
  if (text.endsWith('?')) return 'complete';
  if (CLOSING.test(text)) return 'complete';
  if (isNumber(last)) return 'hold'; // "07700 900…", "flat 3…": digits come in groups
  if (DANGLING.has(last)) return 'hold';
  if (/[.!]$/.test(text)) return 'complete'; // a finished statement, or a question Whisper wrote with a full stop
  // No full stop: mid-sentence, unless it is plainly a question Whisper left unpunctuated.
  return QUESTION_STARTS.has(w[0]!) && w.length >= 3 ? 'neutral' : 'hold';
}

/** The silence (ms) that ends this turn. `mayShorten` is false while a message is being left. */
export function endOfTurnSilenceMs(transcript: string, config: EndOfTurnConfig = DEFAULT_END_OF_TURN, mayShorten = true): number {
  switch (turnEnding(transcript)) {
    case 'complete':
      return mayShorten ? config.completeMs : config.defaultMs;
    case 'hold':
      return config.holdMs;
    default:
      return config.defaultMs;
  }
}
