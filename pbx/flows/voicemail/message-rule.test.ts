import { describe, expect, it } from 'vitest';
import { recordingHasMessage } from './message-rule.js';

describe('recordingHasMessage', () => {
  it('counts a second or more of talking as a message', () => {
    expect(recordingHasMessage({ state: 'done', duration: 6, talking_duration: 3 })).toBe('yes');
  });

  it('does not count a recording of silence, however long', () => {
    expect(recordingHasMessage({ state: 'done', duration: 5, talking_duration: 0 })).toBe('no');
  });

  it('uses the length when Asterisk did not measure talking', () => {
    expect(recordingHasMessage({ state: 'done', duration: 2 })).toBe('yes');
    expect(recordingHasMessage({ state: 'done', duration: 0 })).toBe('no');
  });

  it('never counts a failed or canceled recording, and defers to the file when events were lost', () => {
    expect(recordingHasMessage({ state: 'failed' })).toBe('no');
    expect(recordingHasMessage({ state: 'canceled', duration: 9, talking_duration: 9 })).toBe('no');
    expect(recordingHasMessage({ state: 'done' })).toBe('unknown');
  });
});
