// Word error rate: the Levenshtein alignment of reference and hypothesis words,
// (substitutions + deletions + insertions) / reference words, as speech recognition has
// measured it since NIST's sclite. The alignment also says which reference words came out
// right, so the error rate on names and numbers is read from the same alignment.

export interface Alignment {
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceWords: number;
  /** For each reference word: whether the hypothesis has the same word at that place. */
  matched: boolean[];
}

export function align(reference: string[], hypothesis: string[]): Alignment {
  const n = reference.length;
  const m = hypothesis.length;
  // cost[i][j]: edits to turn the first i reference words into the first j hypothesis words.
  const cost: number[][] = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1;
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + same, cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  const matched = new Array<boolean>(n).fill(false);
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  // Walk back, preferring the diagonal, so a word counts as matched only where it was aligned.
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && cost[i]![j] === cost[i - 1]![j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1)) {
      if (reference[i - 1] === hypothesis[j - 1]) matched[i - 1] = true;
      else substitutions++;
      i--;
      j--;
    } else if (i > 0 && cost[i]![j] === cost[i - 1]![j]! + 1) {
      deletions++;
      i--;
    } else {
      insertions++;
      j--;
    }
  }
  return { substitutions, deletions, insertions, referenceWords: n, matched };
}

/** Errors over reference words; an empty reference scores 0 against an empty hypothesis and 1 per inserted word otherwise. */
export function wordErrorRate(reference: string[], hypothesis: string[]): number {
  const a = align(reference, hypothesis);
  const errors = a.substitutions + a.deletions + a.insertions;
  return a.referenceWords === 0 ? errors : errors / a.referenceWords;
}
