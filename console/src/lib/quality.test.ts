import { describe, expect, it } from 'vitest';
import { millis, percent, shortModels } from './quality';

describe('quality figures', () => {
  it('shows a share as a percentage, and nothing measured as n/a rather than 0', () => {
    expect(percent(0.125)).toBe('12.5%');
    expect(percent(0)).toBe('0.0%');
    expect(percent(null)).toBe('n/a');
  });

  it('shows latency in ms, or seconds from one second up', () => {
    expect(millis(840.4)).toBe('840 ms');
    expect(millis(2450)).toBe('2.5 s');
    expect(millis(null)).toBe('n/a');
  });
});

describe('shortModels', () => {
  it('names the speech-to-text and language models, or the engine when the model is not named', () => {
    const engines = { stt: { engine: 'whisper.cpp', model: 'base.en', endpoints: 1 }, llm: { engine: 'ollama', model: 'llama3.2:3b', endpoints: 1 }, tts: { engine: 'piper' } };
    expect(shortModels({ engines })).toBe('base.en + llama3.2:3b');
    expect(shortModels({ engines: { ...engines, stt: { ...engines.stt, model: null } } })).toBe('whisper.cpp + llama3.2:3b');
  });
});
