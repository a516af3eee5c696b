// Issue 56: a called party who says the call-back is not for them ends it at once with an apology
// and no further tries. Read only over their first turns (CALLED_PARTY_TURNS): later in a
// conversation "not interested" may be about a quote, not the call. Pure.

export type Refusal = 'wrong-number' | 'not-interested';

/** How many of the called party's first turns are read for a refusal. */
const CALLED_PARTY_TURNS = 2;

const WRONG_NUMBER = [/\bwrong (?:number|person)\b/, /\bi (?:did ?n[o']?t|never) ask(?:ed)?\b/, /\bwho (?:is|'s) this\b.*\bnever\b/, /\bno one here (?:asked|called)\b/, /\bnobody here (?:asked|called)\b/];
const NOT_INTERESTED = [/\bnot interested\b/, /\bdon'?t (?:call|ring)\b/, /\bdo not (?:call|ring)\b/, /\bstop (?:calling|ringing)\b/, /\bno longer need\b/, /\bdon'?t need (?:it|you|this) any ?more\b/, /\bremove (?:me|my number)\b/];

/** What the called party's words say, if they turn the call-back down; undefined for anything else. */
export function refusalIn(words: string): Refusal | undefined {
  const text = words.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ');
  if (WRONG_NUMBER.some((re) => re.test(text))) return 'wrong-number';
  if (NOT_INTERESTED.some((re) => re.test(text))) return 'not-interested';
  return undefined;
}

/** The refusal in the called party's first turns (in the order they were said), if any. */
export function refusalInFirstTurns(turns: readonly string[]): Refusal | undefined {
  for (const t of turns.slice(0, CALLED_PARTY_TURNS)) {
    const r = refusalIn(t);
    if (r) return r;
  }
  return undefined;
}
