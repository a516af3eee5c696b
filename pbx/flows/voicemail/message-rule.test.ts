import { describe, expect, it } from 'vitest';
import { buildWavHeader } from '../../../models/audio/wav-header.js';
import { audioHoldsMessage, recordingHasMessage } from './message-rule.js';

describe('recordingHasMessage', () => {
  it('counts a second or more of talking as a message', () => {
    expect(recordingHasMessage({ state: 'done', duration: 6, talking_duration: 3 })).toBe('yes');
  });

  it('leaves "talking 0" to the stored audio: Asterisk reported a spoken message that way (issue 47)', () => {
    // The knee bench's lost message: 1.6 s spoken after the beep, reported "duration 1 talking 0 silence 1".
    expect(recordingHasMessage({ state: 'done', duration: 1, talking_duration: 0 })).toBe('unknown');
    expect(recordingHasMessage({ state: 'done', duration: 5, talking_duration: 0 })).toBe('unknown');
  });

  it('uses the length when Asterisk did not measure talking', () => {
    expect(recordingHasMessage({ state: 'done', duration: 2 })).toBe('yes');
    expect(recordingHasMessage({ state: 'done', duration: 0 })).toBe('unknown');
  });

  it('leaves one second of "talking" to the stored audio: Asterisk reports a silent caller that way', () => {
    expect(recordingHasMessage({ state: 'done', duration: 1, talking_duration: 1 })).toBe('unknown');
    expect(recordingHasMessage({ state: 'done', duration: 1 })).toBe('unknown');
  });

  it('never counts a failed or canceled recording, and defers to the file when events were lost', () => {
    expect(recordingHasMessage({ state: 'failed' })).toBe('no');
    expect(recordingHasMessage({ state: 'canceled', duration: 9, talking_duration: 9 })).toBe('no');
    expect(recordingHasMessage({ state: 'done' })).toBe('unknown');
  });
});

describe('audioHoldsMessage', () => {
  const wav = (samples: Int16Array) =>
    Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: samples.byteLength }), Buffer.from(samples.buffer)]);
  const tone = (ms: number, amp: number) => Int16Array.from({ length: ms * 8 }, (_, i) => Math.round(amp * Math.sin(i / 3)));

  it('finds a message in a second and a half of speech-loud audio', () => {
    expect(audioHoldsMessage(wav(tone(1500, 3000)))).toBe(true);
  });

  it('finds a message in a file under a second: half a second of speech and the 200 ms of quiet Asterisk keeps after it', () => {
    const file = new Int16Array(700 * 8);
    file.set(tone(500, 3000));
    file.set(tone(200, 40), 500 * 8);
    expect(audioHoldsMessage(wav(file))).toBe(true);
  });

  it('finds none in the 0.2 s file a silent caller leaves, nor in a long quiet line', () => {
    expect(audioHoldsMessage(wav(tone(200, 3000)))).toBe(false);
    expect(audioHoldsMessage(wav(tone(4000, 40)))).toBe(false);
  });

  it('finds none in what is not a WAV', () => {
    expect(audioHoldsMessage(Buffer.from('nothing'))).toBe(false);
  });
});
