// Splits the agent's streamed answer into sentences so the first one can be synthesised
// and spoken while the model is still writing the rest. A sentence is released only once
// the character after its full stop has arrived, so "£12.50" or "Dr. Patel" never break.
// The caller is waiting for the first words only: when the first sentence runs long, its
// first clause (up to a comma, semicolon, colon or dash) is released on its own.

const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'st', 'rd', 'ave', 'no', 'nos', 'approx', 'etc', 'e.g', 'i.e', 'vs', 'tel', 'mon', 'tue',
  'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep',
  'sept', 'oct', 'nov', 'dec', 'ltd', 'co', 'inc', 'dept', 'est', 'min', 'mins', 'hr', 'hrs',
]);

/** Longest stretch we hold back waiting for a full stop before splitting at a comma. */
const MAX_CHARS = 220;
/** Before anything has been said: a first sentence this long is spoken clause first. */
const FIRST_CLAUSE_AFTER_CHARS = 60;
/** A first clause shorter than this ("Yes,") is not worth a synthesis of its own. */
const MIN_CLAUSE_CHARS = 20;

function endsWithAbbreviation(text: string): boolean {
  // Only the tail: abbreviations are short, and on the whole text this unanchored regex is quadratic.
  const m = /([A-Za-z][A-Za-z.]*)\.$/.exec(text.slice(-32));
  if (!m) return false;
  const word = m[1]!.toLowerCase();
  if (ABBREVIATIONS.has(word)) return true;
  // A single capital (an initial, "J. Smith") is not a sentence end.
  return /^[A-Z]$/.test(m[1]!);
}

export class SentenceSplitter {
  private buffer = '';
  private released = 0;

  constructor(private readonly opts: { firstClause?: boolean } = {}) {}

  /** Adds streamed text; returns the sentences now complete. */
  push(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    let from = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const ch = this.buffer[i]!;
      const next = this.buffer[i + 1];
      if (ch === '\n') {
        this.take(out, from, i);
        from = i + 1;
        continue;
      }
      if (!'.!?…'.includes(ch) || next === undefined) continue;
      // Closing quotes/brackets belong to the sentence they end.
      let end = i + 1;
      while (end < this.buffer.length && `"'”’)`.includes(this.buffer[end]!)) end++;
      if (end >= this.buffer.length) break; // need to see what follows
      if (!/\s/.test(this.buffer[end]!)) continue; // "12.50", "e.g.x", "www.site.co.uk"
      const candidate = this.buffer.slice(from, end);
      if (ch === '.' && endsWithAbbreviation(candidate.trimEnd())) continue;
      this.take(out, from, end);
      from = end;
      i = end - 1;
    }
    this.buffer = this.buffer.slice(from);
    if ((this.opts.firstClause ?? true) && this.released + out.length === 0 && this.buffer.length >= FIRST_CLAUSE_AFTER_CHARS) {
      const cut = lastClauseEnd(this.buffer);
      if (cut >= MIN_CLAUSE_CHARS) {
        this.take(out, 0, cut);
        this.buffer = this.buffer.slice(cut);
      }
    }
    // A run-on sentence is split at its last comma so speech does not wait for ever.
    if (this.buffer.length > MAX_CHARS) {
      const cut = Math.max(this.buffer.lastIndexOf(', '), this.buffer.lastIndexOf('; '));
      if (cut > 40) {
        this.take(out, 0, cut + 1);
        this.buffer = this.buffer.slice(cut + 1);
      }
    }
    this.released += out.length;
    return out;
  }

  /** The rest once the stream has ended. */
  flush(): string[] {
    const out: string[] = [];
    this.take(out, 0, this.buffer.length);
    this.buffer = '';
    return out;
  }

  private take(out: string[], from: number, to: number): void {
    const s = this.buffer.slice(from, to).trim();
    if (/[\p{L}\p{N}]/u.test(s)) out.push(s);
  }
}

/** End (exclusive) of the last clause in `text` whose boundary has been seen whole, or -1. */
function lastClauseEnd(text: string): number {
  let end = -1;
  // ", " "; " ": " (not "8:30" or "1,000"), and a spaced dash.
  for (const m of text.matchAll(/[,;:](?=\s)|\s[–—-](?=\s)/g)) end = m.index + m[0].length;
  return end;
}
