import { describe, expect, it } from 'vitest';
import { INDUSTRIES } from '../../../contract/rules';
import { knowledgeBasePlaceholder } from './kb-placeholder';

describe('knowledge base placeholder', () => {
  it("gives every sign-up industry its own Q:/A: sample entries, and anything else a general one", () => {
    const seen = new Set<string>();
    for (const industry of INDUSTRIES.filter((i) => i !== 'other')) {
      const text = knowledgeBasePlaceholder(industry);
      expect(text.split('\n\n').every((e) => /^Q: .+\nA: .+$/.test(e)), industry).toBe(true);
      seen.add(text);
    }
    expect(seen.size).toBe(INDUSTRIES.length - 1);
    expect(knowledgeBasePlaceholder('other')).toBe(knowledgeBasePlaceholder(null));
    expect(knowledgeBasePlaceholder('beauty')).toMatch(/patch test/);
  });
});
