import { describe, expect, it } from 'vitest';
import { HARDWARE_PROFILES, LLM_SIZES, WHISPER_MODELS, hardwareProfile, type Figure } from './hardware-profiles.js';

function figures(): { where: string; f: Figure }[] {
  return HARDWARE_PROFILES.flatMap((box) => [
    ...LLM_SIZES.flatMap((s) => [
      { where: `${box.id} ${s} prompt`, f: box.llm[s].promptTokensPerSecond },
      { where: `${box.id} ${s} generation`, f: box.llm[s].generationTokensPerSecond },
    ]),
    ...WHISPER_MODELS.flatMap((m) => [
      { where: `${box.id} ${m} encode`, f: box.stt[m].encodeMsPerWindow },
      { where: `${box.id} ${m} decode`, f: box.stt[m].decodeMsPerToken },
    ]),
    { where: `${box.id} tts`, f: box.tts.realTimeFactor },
  ]);
}

describe('hardware profiles', () => {
  it('gives every figure a source address and what it measured', () => {
    for (const { where, f } of figures()) {
      expect(f.source, where).toMatch(/^https:\/\/github\.com\//);
      expect(f.measured.length, where).toBeGreaterThan(10);
      expect(f.value, where).toBeGreaterThan(0);
    }
  });

  it('keeps the measured 8B figures as published and marks the sizes derived from them as estimates', () => {
    const n100 = hardwareProfile('cpu-mini-pc');
    expect(n100.llm['8b'].promptTokensPerSecond.value).toBe(6.53);
    expect(n100.llm['8b'].promptTokensPerSecond.estimate).toBeUndefined();
    // Prompt reading scales with parameters (8.03 B → 3.21 B), generation with the weights (4.58 → 1.87 GiB).
    expect(n100.llm['3b'].promptTokensPerSecond.value).toBeCloseTo((6.53 * 8.03) / 3.21, 1);
    expect(n100.llm['3b'].generationTokensPerSecond.value).toBeCloseTo((3.01 * 4.58) / 1.87, 1);
    expect(n100.llm['3b'].promptTokensPerSecond.estimate).toMatch(/parameter count/);
    expect(hardwareProfile('igpu-mini-pc').llm['8b'].promptTokensPerSecond.value).toBe(253.57);
  });

  it('orders the boxes as the published figures do: GPU faster than iGPU faster than CPU', () => {
    const [cpu, igpu, gpu] = (['cpu-mini-pc', 'igpu-mini-pc', 'consumer-gpu'] as const).map(hardwareProfile);
    for (const s of LLM_SIZES) {
      expect(igpu!.llm[s].promptTokensPerSecond.value).toBeGreaterThan(cpu!.llm[s].promptTokensPerSecond.value);
      expect(gpu!.llm[s].promptTokensPerSecond.value).toBeGreaterThan(igpu!.llm[s].promptTokensPerSecond.value);
    }
    for (const m of WHISPER_MODELS) expect(gpu!.stt[m].encodeMsPerWindow.value).toBeLessThan(cpu!.stt[m].encodeMsPerWindow.value);
  });

  it('refuses an unknown box by name', () => {
    expect(() => hardwareProfile('raspberry-pi' as never)).toThrow('No hardware profile called "raspberry-pi".');
  });
});
