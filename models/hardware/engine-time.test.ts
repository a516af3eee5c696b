import { describe, expect, it } from 'vitest';
import { generationMs, promptReadMs, sttMs, sttSecondsPerAudioSecond, ttsMs } from './engine-time.js';
import { estimateTokens } from '../llm/token-estimate.js';
import { hardwareProfile } from './hardware-profiles.js';

const n100 = hardwareProfile('cpu-mini-pc');
const gpu = hardwareProfile('consumer-gpu');

describe('engine time on a profile', () => {
  it('reads N prompt tokens at the box’s published prompt rate', () => {
    // The N100 reads an 8B model's prompt at 6.53 tokens/s (normiebench #38): 653 tokens take 100 s.
    expect(promptReadMs(n100.llm['8b'], 653)).toBeCloseTo(100_000, 6);
    expect(promptReadMs(gpu.llm['1b'], 6744)).toBeCloseTo(1000, 6);
  });

  it('generates N tokens at the published generation rate', () => {
    expect(generationMs(n100.llm['8b'], 301)).toBeCloseTo(100_000, 6);
  });

  it('charges Whisper a whole 30 s window for a short turn, and a second window past 30 s', () => {
    const base = n100.stt['base.en'];
    const perToken = base.decodeMsPerToken.value;
    expect(sttMs(base, 2)).toBeCloseTo(2465 + 2 * 3.3 * perToken, 6);
    expect(sttMs(base, 31)).toBeCloseTo(2 * 2465 + 31 * 3.3 * perToken, 6);
    expect(sttMs(base, 0)).toBe(0);
    // So per second of audio a long message is far cheaper than a short turn.
    expect(sttSecondsPerAudioSecond(base, 30)).toBeLessThan(sttSecondsPerAudioSecond(base, 3) / 5);
  });

  it('synthesises a sentence in its spoken length times the voice’s real-time factor', () => {
    // 30 characters ≈ 2 s of speech; at RTF 0.1 that is 200 ms.
    expect(ttsMs(n100.tts, 'x'.repeat(30))).toBeCloseTo(200, 6);
  });

  it('counts about four characters a token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});
