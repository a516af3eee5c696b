import { describe, expect, it } from 'vitest';
import { friendlyVoiceName, voiceLabel } from './voices';

describe('voice labels', () => {
  it("names Piper's UK voices by their speaker with the engine voice in brackets", () => {
    expect(voiceLabel('en_GB-jenny_dioco-medium')).toBe('Jenny (en_GB-jenny_dioco-medium)');
    expect(voiceLabel('en_GB-alan-medium')).toBe('Alan (en_GB-alan-medium)');
    expect(friendlyVoiceName('en_GB-northern_english_male-medium')).toBe('Northern');
  });
  it('shows a voice without a speaker name as it is', () => {
    expect(voiceLabel('en-gb+f3')).toBe('en-gb+f3');
    expect(friendlyVoiceName('')).toBeNull();
  });
});
