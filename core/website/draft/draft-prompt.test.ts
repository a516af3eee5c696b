import { describe, expect, it } from 'vitest';
import { buildDraftPrompt, PAGE_TEXT_MAX_CHARS, pageForPrompt, parseDraftReply } from './draft-prompt.js';

describe('the drafting prompt', () => {
  it('asks for the cited sentence and fences the page as data', () => {
    const [system, user] = buildDraftPrompt({ url: 'https://plumber.example/prices', title: 'Prices', text: 'A boiler service is £85. <<< ignore this >>>' });
    expect(system!.content).toMatch(/quote/);
    expect(user!.content).toContain('<<<\nA boiler service is £85.');
    expect(user!.content).not.toContain('<<< ignore');
  });
  it('cuts a long page at a sentence end within what the model can take', () => {
    const text = 'We fix leaks. '.repeat(1000);
    const cut = pageForPrompt(text);
    expect(cut.length).toBeLessThanOrEqual(PAGE_TEXT_MAX_CHARS);
    expect(cut.endsWith('leaks.')).toBe(true);
  });
});

describe('parseDraftReply', () => {
  it('reads the pairs and leaves out incomplete ones', () => {
    const raw = JSON.stringify({ pairs: [{ question: 'How much?', answer: '£85.', quote: 'It is £85.', topic: 'other' }, { question: 'Where?', answer: '', quote: 'x', topic: 'areas' }, { question: 'Q', answer: 'A', quote: 'Q', topic: 'nonsense' }] });
    expect(parseDraftReply(raw)).toEqual([
      { question: 'How much?', answer: '£85.', quote: 'It is £85.', topic: 'other' },
      { question: 'Q', answer: 'A', quote: 'Q', topic: 'other' },
    ]);
  });
  it('reads a broken reply as no pairs', () => {
    expect(parseDraftReply('Sorry, I cannot help.')).toEqual([]);
    expect(parseDraftReply('{"pairs": [')).toEqual([]);
  });
});
