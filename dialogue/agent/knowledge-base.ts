// The owner's knowledge base is free text in the Q:/A: format SPEC.md §2 describes
// ("each entry starts with Q: … then A: …; entries are separated by blank lines").
// §5 says the format is described but NOT enforced, so the parser is tolerant:
// anything it cannot place in a Q/A pair is kept as a free-text note, never dropped.

interface KnowledgeEntry {
  question: string;
  answer: string;
}

export interface ParsedKnowledgeBase {
  entries: KnowledgeEntry[];
  /** Text outside any Q:/A: pair (opening hours written as prose, a lone answer, …). */
  notes: string[];
}

const Q_LINE = /^\s*(?:q|question)\s*[:.)-]\s*(.*)$/i;
const A_LINE = /^\s*(?:a|answer)\s*[:.)-]\s*(.*)$/i;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export function parseKnowledgeBase(text: string | null | undefined): ParsedKnowledgeBase {
  const entries: KnowledgeEntry[] = [];
  const notes: string[] = [];
  let q: string[] | null = null;
  let a: string[] | null = null;
  let loose: string[] = [];

  const flush = () => {
    const question = q ? squash(q.join(' ')) : '';
    const answer = a ? squash(a.join(' ')) : '';
    if (question && answer) entries.push({ question, answer });
    else if (question) notes.push(question); // a question without an answer still tells the model something
    else if (answer) notes.push(answer);
    const rest = squash(loose.join(' '));
    if (rest) notes.push(rest);
    q = null;
    a = null;
    loose = [];
  };

  for (const raw of (text ?? '').replace(/\r\n?/g, '\n').split('\n')) {
    if (!raw.trim()) {
      flush(); // a blank line ends an entry
      continue;
    }
    const qm = Q_LINE.exec(raw);
    const am = A_LINE.exec(raw);
    if (qm) {
      // "Q:" starts a new entry even when the owner forgot the blank line.
      if (q || a || loose.length) flush();
      q = [qm[1]!];
    } else if (am && !a) {
      a = [am[1]!];
    } else if (a) {
      a.push(raw);
    } else if (q) {
      q.push(raw);
    } else {
      loose.push(raw);
    }
  }
  flush();
  return { entries, notes };
}

/** One entry in the canonical format the console describes. */
export function formatKnowledgeEntry(question: string, answer: string): string {
  // Newlines inside would split the entry (blank lines separate entries), so both are squashed.
  return `Q: ${squash(question)}\nA: ${squash(answer)}`;
}

/** Appends an entry after the existing text, separated by one blank line (SPEC.md §2 format hint). */
export function appendKnowledgeEntry(knowledgeBase: string | null | undefined, question: string, answer: string): string {
  const entry = formatKnowledgeEntry(question, answer);
  // trimEnd, not /\s+$/: that regex backtracks quadratically on long whitespace runs (a 50,000-character KB froze the server).
  const existing = (knowledgeBase ?? '').trimEnd();
  return existing ? `${existing}\n\n${entry}` : entry;
}
