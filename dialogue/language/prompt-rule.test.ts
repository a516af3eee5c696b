import { describe, expect, it } from 'vitest';
import { buildAgentSystemPrompt } from '../agent/agent-prompt.js';

const input = { businessName: 'Acme Plumbing', knowledgeBase: 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.' };

describe("the agent's prompt in the caller's language (issue 42)", () => {
  it('asks for the answer in Polish, numbers and times said the Polish way, names and UK numbers kept', () => {
    const p = buildAgentSystemPrompt({ ...input, language: 'pl' });
    expect(p).toContain('The caller speaks Polish: write "answer" in Polish only');
    expect(p).toMatch(/numbers, prices, dates and times the way Polish speakers say them/);
    expect(p).toMatch(/UK phone numbers exactly as written/);
    expect(p).not.toContain('Use UK English');
  });

  it('keeps the same knowledge base and the same never-invent rules in every language', () => {
    const english = buildAgentSystemPrompt(input);
    const welsh = buildAgentSystemPrompt({ ...input, language: 'cy' });
    const rules = (p: string) => p.split('\n').filter((l) => !/UK English|caller speaks|the way .* say them|exactly as written/.test(l));
    expect(rules(welsh)).toEqual(rules(english));
    expect(welsh).toContain('A: We are open 8am to 6pm, Monday to Friday.');
    expect(english).toContain('Use UK English');
  });
});
