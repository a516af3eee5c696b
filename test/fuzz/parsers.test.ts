import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toE164 } from '../../contract/phone.js';
import { formatPostcode, isUkPostcode } from '../../contract/rules.js';
import { appendKnowledgeEntry, parseKnowledgeBase } from '../../dialogue/agent/knowledge-base.js';
import { parseAgentReply } from '../../dialogue/agent/agent-reply.js';

// Properties of the parsers that read what owners type and what the model writes.
const text = fc.string({ maxLength: 400, unit: 'grapheme' });
const line = fc.string({ minLength: 1, maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ' ')).filter((s) => s.trim().length > 0 && !/^\s*(q|a|question|answer)\s*[:.)-]/i.test(s));

describe('knowledge base parser', () => {
  it('never throws and never loses a word the owner wrote', () => {
    fc.assert(
      fc.property(text, (kb) => {
        const parsed = parseKnowledgeBase(kb);
        const kept = [...parsed.entries.flatMap((e) => [e.question, e.answer]), ...parsed.notes].join(' ');
        for (const word of kb.split(/\s+/).filter((w) => w && !/^(q|a|question|answer)\s*[:.)-]?$/i.test(w))) {
          // Prefixes like "Q:" are syntax; every other word survives somewhere.
          const bare = word.replace(/^(q|a|question|answer)\s*[:.)-]/i, '');
          if (bare) expect(kept).toContain(bare);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads back every entry appended with Add to KB, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, line), { minLength: 1, maxLength: 6 }), (pairs) => {
        let kb: string | null = null;
        for (const [q, a] of pairs) kb = appendKnowledgeEntry(kb, q, a);
        const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
        expect(parseKnowledgeBase(kb).entries).toEqual(pairs.map(([q, a]) => ({ question: squash(q), answer: squash(a) })));
      }),
      { numRuns: 200 },
    );
  });
});

describe('agent reply parser', () => {
  it('turns anything the model writes into a reply, never a throw, never "answered" without an answer', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))), (raw) => {
        const reply = parseAgentReply(raw);
        expect(typeof reply.answered).toBe('boolean');
        if (reply.answered) expect(reply.answer.trim().length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('phone and postcode parsing', () => {
  it('toE164 returns E.164 or null, and is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.stringMatching(/^(\+44|0|0044)[ 0-9()-]{9,14}$/)), (raw) => {
        const e164 = toE164(raw);
        if (e164 !== null) {
          expect(e164).toMatch(/^\+[1-9]\d{6,14}$/);
          expect(toE164(e164)).toBe(e164);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('formatPostcode is idempotent and validity does not depend on spacing or case', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.stringMatching(/^[A-Za-z]{1,2}[0-9][0-9A-Za-z]? ?[0-9][A-Za-z]{2}$/)), (raw) => {
        const once = formatPostcode(raw);
        expect(formatPostcode(once)).toBe(once);
        expect(isUkPostcode(raw.toLowerCase())).toBe(isUkPostcode(raw.toUpperCase().replace(/\s/g, '')));
      }),
      { numRuns: 500 },
    );
  });
});
