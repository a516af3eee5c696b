import { appendKnowledgeEntry, formatKnowledgeEntry, parseKnowledgeBase } from '../../dialogue/agent/knowledge-base.js';

// What approving a draft does to the owner's knowledge base (users.knowledge_base, SPEC's Q:/A:
// text), as a pure rule. The owner's own writing is never lost: a change replaces only an entry
// that still reads exactly as it did when the draft was made; anything else gets an entry appended.

/** The draft as the owner approved it (their edit, if any, already applied). */
export interface ApprovedEntry {
  kind: 'new' | 'change' | 'hours' | 'areas';
  question: string;
  answer: string;
  /** A 'change': the owner's entry as it stood when the draft was made. */
  currentQuestion: string | null;
  currentAnswer: string | null;
}

const same = (a: string, b: string) => a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/** The knowledge base with the approved entry in it, and whether a change replaced the owner's entry (false: appended). */
export function withApprovedEntry(knowledgeBase: string | null, entry: ApprovedEntry): { knowledgeBase: string; replaced: boolean } {
  if (entry.kind === 'change' && entry.currentQuestion !== null && knowledgeBase) {
    // Blank lines separate entries (SPEC §2); the separators are kept so the rest reads as before.
    const parts = knowledgeBase.split(/(\n[ \t]*\n\s*)/);
    for (let i = 0; i < parts.length; i += 2) {
      const parsed = parseKnowledgeBase(parts[i]);
      const only = parsed.entries.length === 1 && parsed.notes.length === 0 ? parsed.entries[0]! : null;
      // Both question and answer must still match: an entry the owner edited since is theirs now.
      if (only && same(only.question, entry.currentQuestion) && (entry.currentAnswer === null || same(only.answer, entry.currentAnswer))) {
        const lead = /^\s*/.exec(parts[i]!)![0];
        const trail = /\s*$/.exec(parts[i]!)![0];
        parts[i] = `${lead}${formatKnowledgeEntry(entry.question, entry.answer)}${trail}`;
        return { knowledgeBase: parts.join(''), replaced: true };
      }
    }
  }
  return { knowledgeBase: appendKnowledgeEntry(knowledgeBase, entry.question, entry.answer), replaced: false };
}
