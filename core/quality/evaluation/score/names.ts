import { normaliseWords } from './normalise.js';

// Whether a text names the person the reference names. Case, accents, apostrophes and
// hyphens do not count ("O'Brien" = "OBrien" = "o brien", "Zoë" = "Zoe"); spelling does
// ("Shivaun" is not "Siobhan"): a summary that misspells the caller's name would send the
// owner looking for the wrong person, so it is scored wrong.

/** The name's words in the form normaliseWords gives them. */
export const nameWords = (name: string): string[] => normaliseWords(name);

export function nameMatches(referenceName: string, text: string): boolean {
  const want = nameWords(referenceName);
  if (want.length === 0) return false;
  const words = normaliseWords(text);
  // "O Brien" written apart is the one word "obrien".
  const joined = new Set(words.slice(0, -1).map((w, i) => w + words[i + 1]));
  const have = new Set(words);
  return want.every((w) => have.has(w) || joined.has(w));
}
