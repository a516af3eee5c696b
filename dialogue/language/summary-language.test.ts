import { describe, expect, it } from 'vitest';
import { buildSummaryPrompt } from '../summary/summary.js';
import { spokenLanguage } from './languages.js';

describe("the owner's summary of a call in another language (issue 42)", () => {
  it('asks for English that names the language the caller spoke', () => {
    const [system] = buildSummaryPrompt({ transcript: 'Caller: Dzień dobry…', callerNumber: '+447700900123', mode: 'agent', callerLanguage: spokenLanguage('pl') });
    expect(system!.content).toContain('The caller spoke Polish. Write the summary in English all the same, and say in it that the caller spoke Polish.');
  });

  it('says nothing of language for an English call, or one that went back to English', () => {
    expect(spokenLanguage(null)).toBeUndefined();
    expect(spokenLanguage('en')).toBeUndefined();
    const [system] = buildSummaryPrompt({ transcript: 'Caller: Hello', callerNumber: '', mode: 'voicemail', callerLanguage: spokenLanguage('en') });
    expect(system!.content).not.toMatch(/caller spoke/);
  });
});
