import { describe, expect, it } from 'vitest';
import { GreetingRecordingRefused, prepareGreetingRecording } from './greeting-recording.js';
import { buildWavHeader } from './wav-header.js';

// Issue 53 item 5: a malformed header is the owner's file at fault, answered in plain words
// (GreetingRecordingRefused, a 400), never an error from reading past the samples (a 500).

/** One second of a 440 Hz tone, 16 kHz 16-bit, `channels` channels. */
function tone(channels = 2): Buffer {
  const frames = 16000;
  const data = Buffer.alloc(frames * channels * 2);
  for (let i = 0; i < frames; i++) for (let c = 0; c < channels; c++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), (i * channels + c) * 2);
  return Buffer.concat([buildWavHeader({ sampleRate: 16000, channels, bitsPerSample: 16, dataBytes: data.length }), data]);
}

/** `wav` with the 16-bit field at `at` set to `value`. */
const with16 = (wav: Buffer, at: number, value: number) => {
  const copy = Buffer.from(wav);
  copy.writeUInt16LE(value, at);
  return copy;
};
const BLOCK_ALIGN = 32;
const CHANNELS = 22;

const refusal = (body: Buffer) => {
  try {
    prepareGreetingRecording(body, 'en');
  } catch (err) {
    if (err instanceof GreetingRecordingRefused) return err.message;
    throw err;
  }
  throw new Error('the recording was accepted');
};

describe('prepareGreetingRecording refuses malformed headers in plain words', () => {
  it('a block size that disagrees with the channels and bits (stereo 16-bit declaring 1 byte a frame)', () => {
    expect(refusal(with16(tone(2), BLOCK_ALIGN, 1))).toBe(
      "The recording's header does not add up: it says 2 channels of 16 bits (4 bytes a frame) but a block size of 1 byte. Save it again as 16-bit PCM WAV and upload it again.",
    );
    expect(refusal(with16(tone(1), BLOCK_ALIGN, 4))).toBe(
      "The recording's header does not add up: it says 1 channel of 16 bits (2 bytes a frame) but a block size of 4 bytes. Save it again as 16-bit PCM WAV and upload it again.",
    );
  });

  it('a truncated fmt chunk, zero channels and a data length past the end of the file', () => {
    const truncated = Buffer.from(tone(1).subarray(0, 30));
    expect(refusal(truncated)).toBe('That WAV recording is damaged or cut short: save it again as WAV (16-bit PCM) and upload it again, or record again.');
    expect(refusal(with16(tone(1), CHANNELS, 0))).toBe('That WAV recording is damaged or cut short: save it again as WAV (16-bit PCM) and upload it again, or record again.');
    // A data length of 4 GB is clamped to what the file holds: the second of tone is kept.
    const huge = tone(1);
    huge.writeUInt32LE(0xfffffff0, 40);
    expect(prepareGreetingRecording(huge, 'en').durationMs).toBe(1000);
  });

  it('every header byte set to 0x00, 0x01 or 0xFF gives a recording or a refusal, never another error', () => {
    const wav = tone(2);
    const others: string[] = [];
    for (let at = 0; at < 44; at++) {
      for (const value of [0x00, 0x01, 0xff]) {
        const mutated = Buffer.from(wav);
        mutated[at] = value;
        try {
          prepareGreetingRecording(mutated, 'en');
        } catch (err) {
          if (!(err instanceof GreetingRecordingRefused)) others.push(`byte ${at} = ${value}: ${String(err)}`);
        }
      }
    }
    expect(others).toEqual([]);
  });
});
