import { describe, expect, it } from 'vitest';
import { slotsLine, turnedAwayLine } from './agent-capacity';

describe('agent capacity lines', () => {
  it('lists each engine’s slots in use, and the endpoints that are down', () => {
    expect(
      slotsLine([
        { engine: 'ollama', slots: 8, slotsInUse: 3, endpoints: 2, healthyEndpoints: 1 },
        { engine: 'whisper', slots: 1, slotsInUse: 0, endpoints: 1, healthyEndpoints: 1 },
        { engine: 'tts', slots: 2, slotsInUse: 2, endpoints: 1, healthyEndpoints: 1 },
      ]),
    ).toBe('Ollama 3/8 (1 of 2 down) · Whisper 0/1 · TTS 2/2');
  });

  it('says why calls were turned to voicemail', () => {
    expect(turnedAwayLine({ busy: 3, stalled: 1, total: 4 })).toBe('3 busy at answer · 1 stalled mid-call');
  });
});
