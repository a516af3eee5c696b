import { describe, expect, it } from 'vitest';
import { agentGreeting } from '../spoken/agent-lines.js';
import { buildAgentSystemPrompt } from './agent-prompt.js';

describe('buildAgentSystemPrompt', () => {
  const kb = 'Q: What are your opening hours?\nA: 8am to 6pm, Monday to Friday.\n\nWe are based in Leeds.';
  const prompt = buildAgentSystemPrompt({ businessName: 'Acme Plumbing', knowledgeBase: kb });

  it('names the business and carries every knowledge-base entry and note', () => {
    expect(prompt).toContain('Acme Plumbing');
    expect(prompt).toContain('Q: What are your opening hours?');
    expect(prompt).toContain('A: 8am to 6pm, Monday to Friday.');
    expect(prompt).toContain('We are based in Leeds.');
  });

  it('states the rules of conduct', () => {
    expect(prompt).toMatch(/UK English/);
    expect(prompt).toMatch(/short/i);
    expect(prompt).toMatch(/Never invent prices, times/);
    expect(prompt).toMatch(/"answered" to false/);
    expect(prompt).toMatch(/"intent": "question" \| "message" \| "human" \| "urgent" \| "goodbye"/);
    expect(prompt).toContain('If they say it is urgent or an emergency, set intent to "urgent"');
  });

  it('says so when the knowledge base is empty, and copes without a business name', () => {
    const p = buildAgentSystemPrompt({ businessName: null, knowledgeBase: '' });
    expect(p).toContain('the business');
    expect(p).toContain('The knowledge base is empty');
  });

  it('is deterministic (the console preview and the phone get the same text)', () => {
    expect(buildAgentSystemPrompt({ businessName: 'Acme Plumbing', knowledgeBase: kb })).toBe(prompt);
  });
});

describe('agentGreeting', () => {
  it('discloses the automated assistant and the recording at the start', () => {
    const g = agentGreeting('Acme Plumbing');
    expect(g).toMatch(/^Hello, you've reached Acme Plumbing\./);
    expect(g).toMatch(/automated assistant/);
    expect(g).toMatch(/recorded/);
    expect(agentGreeting(null)).toMatch(/automated assistant/);
  });
});

describe('buildAgentSystemPrompt with a booking desk (issue 41)', () => {
  const kb = 'Q: Do you service boilers?\nA: Yes.';
  it('without bookable services the prompt is exactly as before: no bookings agreed, no "book" intent', () => {
    const p = buildAgentSystemPrompt({ businessName: 'Acme Plumbing', knowledgeBase: kb });
    expect(p).toContain('never agree to bookings or call-backs at a specific time');
    expect(p).not.toContain('"book"');
    expect(p).not.toContain('"choice"');
  });
  it('with a desk: the agent may book but never says a time itself; the step in progress is shown with its ids', () => {
    const idle = buildAgentSystemPrompt({ businessName: 'Acme Plumbing', knowledgeBase: kb, booking: { step: null } });
    expect(idle).not.toContain('never agree to bookings');
    expect(idle).toContain('never say a time or date yourself');
    expect(idle).toContain('set intent to "book"');
    expect(idle).not.toContain('BOOKING IN PROGRESS');
    const step = 'You offered these times: s1 = Tuesday at ten.';
    expect(buildAgentSystemPrompt({ businessName: 'Acme Plumbing', knowledgeBase: kb, booking: { step } })).toContain(`BOOKING IN PROGRESS:\n${step}`);
  });
});
