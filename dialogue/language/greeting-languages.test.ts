import { describe, expect, it } from 'vitest';
import { agentGreeting } from '../spoken/agent-lines.js';
import { fixedLines } from './fixed-lines.js';
import { greetingLanguagesProblem, greetingLines, parseGreetingLanguages, RECORDED_GREETING_TRANSCRIPT } from './greeting-languages.js';

describe('greeting languages (issue 42: the bilingual greeting)', () => {
  it('reads the stored list in the owner’s order, English alone when unset', () => {
    expect(parseGreetingLanguages('cy,en')).toEqual(['cy', 'en']);
    expect(parseGreetingLanguages(null)).toEqual(['en']);
    expect(parseGreetingLanguages('xx')).toEqual(['en']);
  });

  it('speaks each language’s own greeting line in the owner’s order', () => {
    expect(greetingLines(['cy', 'en'], ['en', 'cy'], 'Siop Dai')).toEqual([
      { language: 'cy', text: fixedLines('cy').greeting('Siop Dai') },
      { language: 'en', text: agentGreeting('Siop Dai') },
    ]);
  });

  it('plays a recorded language’s recording, then its disclosure; a recording of a language unticked since is not played', () => {
    expect(greetingLines(['en', 'cy'], ['en', 'cy'], 'Siop Dai', { cy: '/data/cy.wav' })).toEqual([
      { language: 'en', text: agentGreeting('Siop Dai') },
      { language: 'cy', text: RECORDED_GREETING_TRANSCRIPT, recording: '/data/cy.wav' },
      { language: 'cy', text: fixedLines('cy').disclosure },
    ]);
    expect(greetingLines(['en', 'cy'], ['en'], null, { cy: '/data/cy.wav' })).toEqual([{ language: 'en', text: agentGreeting(null) }]);
  });

  it('leaves out a language the owner has since unticked under Caller Languages', () => {
    expect(greetingLines(['en', 'cy'], ['en', 'pl'], null)).toEqual([{ language: 'en', text: agentGreeting(null) }]);
  });

  it('says what is wrong with a choice the console can show', () => {
    expect(greetingLanguagesProblem(['en', 'cy'], ['en', 'cy'])).toBeNull();
    expect(greetingLanguagesProblem(['cy', 'en'], ['en', 'cy'])).toBeNull();
    expect(greetingLanguagesProblem(['en', 'fr'], ['en', 'cy'])).toBe('greetingLanguages: the agent does not speak "fr".');
    expect(greetingLanguagesProblem(['en', 'en'], ['en'])).toBe('greetingLanguages: name each language once.');
    expect(greetingLanguagesProblem(['cy'], ['en', 'cy'])).toBe('The greeting must include English: callers are answered in English until they speak another language.');
    expect(greetingLanguagesProblem(['en', 'cy'], ['en', 'pl'])).toBe('Tick Welsh under Caller Languages to greet callers in it.');
  });
});
