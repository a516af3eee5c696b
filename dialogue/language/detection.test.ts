import { describe, expect, it } from 'vitest';
import { decideLanguage, DEFAULT_LANGUAGE_POLICY, type LanguagePolicy } from './detection.js';
import { DEFAULT_ALLOWED_LANGUAGES } from './languages.js';

const policy: LanguagePolicy = { ...DEFAULT_LANGUAGE_POLICY, allowed: DEFAULT_ALLOWED_LANGUAGES };
const POLISH_QUESTION = 'Dzień dobry, ile kosztuje wymiana kranu w kuchni?';

describe('decideLanguage: when the agent changes the language it answers in', () => {
  it('switches to an allowed language heard confidently over enough words', () => {
    expect(decideLanguage('en', POLISH_QUESTION, { language: 'polish', probability: 0.93 }, policy)).toEqual({ language: 'pl', changed: true, reason: 'detected' });
  });

  it('never switches on a one-word first turn, however sure whisper is', () => {
    // The misdetection the issue reports: an English "Hello?" scored Latin 0.85 and could score Welsh as well.
    expect(decideLanguage('en', 'Hello?', { language: 'welsh', probability: 0.97 }, policy)).toMatchObject({ language: 'en', changed: false, reason: 'too-short' });
  });

  it('stays when whisper is unsure', () => {
    expect(decideLanguage('en', POLISH_QUESTION, { language: 'pl', probability: 0.55 }, policy)).toMatchObject({ language: 'en', changed: false, reason: 'unsure' });
  });

  it('stays when whisper reported no probability (a server older than v1.7.6)', () => {
    expect(decideLanguage('en', POLISH_QUESTION, { language: 'polish' }, policy)).toMatchObject({ language: 'en', changed: false, reason: 'unsure' });
  });

  it('stays English for a language outside the allow-list, detected or asked for', () => {
    const englishAndWelsh: LanguagePolicy = { ...policy, allowed: ['en', 'cy'] };
    expect(decideLanguage('en', POLISH_QUESTION, { language: 'polish', probability: 0.99 }, englishAndWelsh)).toMatchObject({ language: 'en', changed: false, reason: 'not-allowed' });
    expect(decideLanguage('en', 'Do you speak Polish?', { language: 'english', probability: 0.99 }, englishAndWelsh)).toMatchObject({ language: 'en', reason: 'not-allowed' });
    expect(decideLanguage('en', 'Guten Tag, was kostet ein neuer Wasserhahn?', { language: 'german', probability: 0.99 }, policy)).toMatchObject({ language: 'en', reason: 'not-allowed' });
  });

  it('switches at once when the caller asks, even in a short turn', () => {
    expect(decideLanguage('en', 'Cymraeg?', { language: 'welsh', probability: 0.4 }, policy)).toEqual({ language: 'cy', changed: true, reason: 'asked' });
  });

  it('goes back to English when the caller asks for it or speaks it', () => {
    expect(decideLanguage('pl', 'English please', { language: 'english', probability: 0.6 }, policy)).toEqual({ language: 'en', changed: true, reason: 'asked' });
    expect(decideLanguage('pl', 'Sorry, can you tell me your opening hours?', { language: 'english', probability: 0.95 }, policy)).toEqual({ language: 'en', changed: true, reason: 'detected' });
  });

  it('keeps the language when the turn is in it or whisper said nothing', () => {
    expect(decideLanguage('pl', POLISH_QUESTION, { language: 'pl', probability: 0.99 }, policy)).toMatchObject({ language: 'pl', changed: false, reason: 'same' });
    expect(decideLanguage('pl', 'Tak', {}, policy)).toMatchObject({ language: 'pl', changed: false, reason: 'unknown' });
  });
});
