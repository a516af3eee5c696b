// How well a knowledge-base entry matches what a caller said: Okapi BM25 over words, the
// ranking function search engines have used since the 1990s (Robertson and Zaragoza, "The
// Probabilistic Relevance Framework: BM25 and Beyond", 2009). A word scores more the rarer it
// is across the entries (so "parking" outweighs "boiler" in a heating engineer's knowledge
// base) and the more often it occurs in an entry, with diminishing returns and short entries
// favoured. Pure and small on purpose: an owner's knowledge base is tens of entries, and the
// reason an entry was picked can be read off the words it shares with the caller.

// BM25's usual constants: k1 caps how much repeating a word helps, b how much length counts.
const K1 = 1.2;
const B = 0.75;

// Words that say nothing about which entry is meant; they would otherwise tie every entry.
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could do does did for from had has have hello hi how i if in is it its ' +
    "i'm im me my of on or our please so that the their them then there they this to us was we were what when where " +
    'which who why will with would you your yes no ok okay just about any some much many want like get got need know tell'
  ).split(' '),
);

/** The words of a text as the scoring compares them: lower case, stopwords out, plural and -ing/-ed endings cut. */
export function termsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.map((w) => w.replace(/'s$|'/g, '')).filter((w) => w && !STOPWORDS.has(w)).map(stem);
}

/** A light suffix cut, the same on both sides, so "parking", "parked" and "park" meet. */
function stem(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  for (const [suffix, keep] of [['ies', 'y'], ['ing', ''], ['ed', ''], ['s', '']] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3 && !word.endsWith('ss')) return word.slice(0, -suffix.length) + keep;
  }
  return word;
}

/** A query's words, each with its weight (the caller's words now count fully, earlier ones less). */
export type WeightedTerms = ReadonlyMap<string, number>;

export function weightedTerms(parts: ReadonlyArray<{ text: string; weight: number }>): WeightedTerms {
  const out = new Map<string, number>();
  for (const { text, weight } of parts) for (const t of new Set(termsOf(text))) out.set(t, Math.max(out.get(t) ?? 0, weight));
  return out;
}

/** BM25 scores of each document for the query, in the documents' order (0: no word shared). */
export function bm25Scores(documents: readonly string[], query: WeightedTerms): number[] {
  const docs = documents.map(termsOf);
  const n = docs.length;
  if (!n || !query.size) return docs.map(() => 0);
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / n || 1;
  const containing = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) if (query.has(t)) containing.set(t, (containing.get(t) ?? 0) + 1);
  return docs.map((d) => {
    const counts = new Map<string, number>();
    for (const t of d) if (query.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
    let score = 0;
    for (const [t, f] of counts) {
      const df = containing.get(t) ?? 0;
      // The "+1" inside the log keeps a word found in most entries slightly positive (BM25+ style), never negative.
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += query.get(t)! * idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avgLength)));
    }
    return score;
  });
}
