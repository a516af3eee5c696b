import { describe, expect, it } from 'vitest';
import { selfTestAdvice } from './advice.js';

describe('the self-test advice', () => {
  it('says plainly when the first audio p50 is over 1.5 s, and what to do', () => {
    expect(selfTestAdvice(2300)).toEqual({
      slow: true,
      text: 'On this hardware the assistant takes 2.3 s to start answering (p50); callers notice over 1.5 s. Use a smaller model (OLLAMA_MODEL) or keep owners in voicemail mode.',
    });
    expect(selfTestAdvice(1501).slow).toBe(true);
  });

  it('is not slow at 1.5 s and under', () => {
    expect(selfTestAdvice(1500)).toEqual({ slow: false, text: 'On this hardware the assistant starts answering in 1.5 s (p50): quick enough for agent mode.' });
    expect(selfTestAdvice(850).slow).toBe(false);
  });

  it('counts a run that timed no turn as slow', () => {
    expect(selfTestAdvice(null).slow).toBe(true);
    expect(selfTestAdvice(null).text).toMatch(/voicemail mode/);
  });
});
