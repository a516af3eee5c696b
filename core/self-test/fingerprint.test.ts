import { describe, expect, it } from 'vitest';
import { describeEngines, engineFingerprint, selfTestDue, type EngineIdentity } from './fingerprint.js';

const box: EngineIdentity = {
  ollamaModel: 'llama3.2:3b',
  ollamaUrls: ['http://ollama:11434'],
  whisperUrls: ['http://whisper:8080'],
  whisperModel: null,
  ttsEngine: 'piper',
  ttsLocation: 'piper /voices',
  voices: ['en_GB-alba-medium.onnx 100', 'en_GB-alan-medium.onnx 200'],
};

describe('the engines fingerprint', () => {
  it('is the same for the same engines (a restart does not run the self-test again)', () => {
    const fp = engineFingerprint(box);
    expect(engineFingerprint({ ...box, voices: [...box.voices].reverse() })).toBe(fp);
    expect(selfTestDue(fp, fp)).toBe(false);
  });

  it.each<[string, Partial<EngineIdentity>]>([
    ['the model', { ollamaModel: 'qwen2.5:1.5b' }],
    ['an Ollama address', { ollamaUrls: ['http://ollama:11434', 'http://gpu:11434'] }],
    ['the Whisper address', { whisperUrls: ['http://whisper2:8080'] }],
    ['the voice engine', { ttsEngine: 'espeak-ng', ttsLocation: null, voices: [] }],
    ['a voice', { voices: [...box.voices, 'pl_PL-gosia-medium.onnx 300'] }],
    ['a voice file changed in place', { voices: ['en_GB-alba-medium.onnx 101', 'en_GB-alan-medium.onnx 200'] }],
  ])('changes with %s, so the self-test runs again', (_what, change) => {
    const before = engineFingerprint(box);
    const after = engineFingerprint({ ...box, ...change });
    expect(after).not.toBe(before);
    expect(selfTestDue(after, before)).toBe(true);
  });

  it('is due when no self-test has completed', () => {
    expect(selfTestDue(engineFingerprint(box), null)).toBe(true);
  });

  it('describes the engines for people', () => {
    expect(describeEngines(box)).toBe('ollama llama3.2:3b at http://ollama:11434 · whisper at http://whisper:8080 · piper (2 voices)');
  });
});
