import { describe, expect, it } from 'vitest';
import { appendKnowledgeEntry, formatKnowledgeEntry, parseKnowledgeBase } from './knowledge-base.js';

describe('parseKnowledgeBase', () => {
  it('reads Q:/A: entries separated by blank lines', () => {
    const kb = 'Q: What are your hours?\nA: 8am to 6pm, Monday to Friday.\n\nQ: Do you do emergencies?\nA: Yes, 24/7.';
    expect(parseKnowledgeBase(kb)).toEqual({
      entries: [
        { question: 'What are your hours?', answer: '8am to 6pm, Monday to Friday.' },
        { question: 'Do you do emergencies?', answer: 'Yes, 24/7.' },
      ],
      notes: [],
    });
  });

  it('tolerates missing blank lines, lower case, CRLF, extra spaces and multi-line answers', () => {
    const kb = 'q:Hours?\r\na:   9 to 5\r\nweekdays only\r\nQuestion: Parking?\r\nAnswer: On the street.';
    expect(parseKnowledgeBase(kb).entries).toEqual([
      { question: 'Hours?', answer: '9 to 5 weekdays only' },
      { question: 'Parking?', answer: 'On the street.' },
    ]);
  });

  it('keeps text it cannot place as notes instead of dropping it', () => {
    const kb = 'We are a family firm based in Leeds.\n\nQ: Unanswered question\n\nA: orphan answer';
    const parsed = parseKnowledgeBase(kb);
    expect(parsed.entries).toEqual([]);
    expect(parsed.notes).toEqual(['We are a family firm based in Leeds.', 'Unanswered question', 'orphan answer']);
  });

  it('handles empty and null input', () => {
    expect(parseKnowledgeBase(null)).toEqual({ entries: [], notes: [] });
    expect(parseKnowledgeBase('  \n\n ')).toEqual({ entries: [], notes: [] });
  });
});

describe('appendKnowledgeEntry', () => {
  it('starts an empty knowledge base with the entry alone', () => {
    expect(appendKnowledgeEntry(null, 'Q1?', 'A1.')).toBe('Q: Q1?\nA: A1.');
    expect(appendKnowledgeEntry('   ', 'Q1?', 'A1.')).toBe('Q: Q1?\nA: A1.');
  });
  it('separates from existing text by exactly one blank line', () => {
    expect(appendKnowledgeEntry('Q: a\nA: b\n\n\n', 'c', 'd')).toBe('Q: a\nA: b\n\nQ: c\nA: d');
  });
  it('squashes line breaks so the entry stays one entry, and the parser reads it back', () => {
    expect(formatKnowledgeEntry('Do you\ncover York?', 'Yes.\n\nWe do.')).toBe('Q: Do you cover York?\nA: Yes. We do.');
    const kb = appendKnowledgeEntry('Q: a\nA: b', 'Do you\ncover York?', 'Yes.\n\nWe do.');
    expect(parseKnowledgeBase(kb).entries).toHaveLength(2);
  });
});
