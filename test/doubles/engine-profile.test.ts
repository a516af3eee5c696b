import { afterEach, describe, expect, it } from 'vitest';
import { sttMs } from '../../models/hardware/engine-time.js';
import { estimateTokens } from '../../models/llm/token-estimate.js';
import { hardwareProfile } from '../../models/hardware/hardware-profiles.js';
import { encodeWav } from '../ari-sim/wav.js';
import { llmTiming } from './ollama/profile-timing.js';
import { startOllamaDouble, type OllamaDouble } from './ollama/server.js';
import { startWhisperDouble, type WhisperDouble } from './whisper/server.js';
import { streamedUntil } from './ollama/streamed-text.js';

// The doubles on a simulated box (issue 61): each request costs what the box's published rates say
// this request costs. Checked by the figures the double computes and reports, never by wall time.

const igpu = hardwareProfile('igpu-mini-pc');

describe('the Ollama double on a simulated box', () => {
  let ollama: OllamaDouble | undefined;
  afterEach(() => ollama?.close());

  it('times a request by the tokens of the prompt it was sent and of its reply, and reports them as Ollama does', async () => {
    ollama = await startOllamaDouble();
    ollama.profile = { rates: igpu.llm['8b'], scale: 0.001 };
    ollama.replier = () => JSON.stringify({ intent: 'question', answered: true, answer: 'We open at eight. We close at six.' });
    const system = 'You are the receptionist. '.repeat(100);
    const body = { model: 'llama3.2:3b', stream: false, messages: [{ role: 'system', content: system }, { role: 'user', content: 'When do you open?' }] };
    const reply = (await (await fetch(`${ollama.url}/api/chat`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, number>;

    const timing = ollama.requests[0]!.timing!;
    expect(timing).toEqual(llmTiming(igpu.llm['8b'], body, ollama.replier(ollama.requests[0]!)));
    // Every message's words are read: 2,600 characters of system prompt and the question.
    expect(timing.promptTokens).toBe(estimateTokens(`${system}\nWhen do you open?`));
    expect(timing.promptMs).toBeCloseTo((timing.promptTokens / 253.57) * 1000, 6);
    expect(reply.prompt_eval_count).toBe(timing.promptTokens);
    expect(reply.prompt_eval_duration).toBe(Math.round(timing.promptMs * 1e6));
    expect(reply.eval_duration).toBe(Math.round((timing.totalMs - timing.promptMs) * 1e6));
  });

  it('reads a longer prompt for longer, by exactly its extra tokens at the profile’s rate', async () => {
    ollama = await startOllamaDouble();
    ollama.profile = { rates: igpu.llm['8b'], scale: 0.001 };
    const ask = (content: string) => fetch(`${ollama!.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'llama3.2:3b', stream: false, messages: [{ role: 'user', content }] }) }).then((r) => r.json());
    await ask('x'.repeat(400));
    await ask('x'.repeat(4400));
    const [short, long] = ollama.requests.map((r) => r.timing!);
    expect(long!.promptTokens - short!.promptTokens).toBe(1000);
    expect(long!.promptMs - short!.promptMs).toBeCloseTo((1000 / 253.57) * 1000, 6);
  });

  it('streams the first sentence once its tokens are generated and holds the rest for the whole reply', async () => {
    ollama = await startOllamaDouble();
    // The rest of the reply is 25,000 tokens at 16.3 tokens/s: over 15 s even at this scale.
    ollama.profile = { rates: igpu.llm['8b'], scale: 0.01 };
    ollama.replier = () => JSON.stringify({ intent: 'question', answered: true, answer: `We open at eight. ${'And more. '.repeat(10_000)}` });
    const res = await fetch(`${ollama.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'When do you open?' }] }) });
    const { text, reader } = await streamedUntil(res, 'eight. ');
    expect(text).toBe('{"intent":"question","answered":true,"answer":"We open at eight. ');
    const timing = ollama.requests[0]!.timing!;
    expect(timing.tokensToFirstSentence).toBe(estimateTokens('{"intent":"question","answered":true,"answer":"We open at eight. '));
    expect((timing.totalMs - timing.firstPieceMs) * 0.01).toBeGreaterThan(15_000);
    await reader.cancel();
  });

  it('adds no delay and records no timing without a profile (the default every other test uses)', async () => {
    ollama = await startOllamaDouble();
    const reply = (await (await fetch(`${ollama.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'llama3.2:3b', stream: false, messages: [] }) })).json()) as Record<string, number>;
    expect(ollama.requests[0]!.timing).toBeUndefined();
    expect(reply.prompt_eval_count).toBe(120);
  });
});

/** A 16 kHz mono 16-bit WAV of silence, `seconds` long. */
function wav(seconds: number): Blob {
  return new Blob([encodeWav(Buffer.alloc(16000 * 2 * seconds), { sampleRate: 16000, channels: 1, bitsPerSample: 16 })], { type: 'audio/wav' });
}

describe('the Whisper double on a simulated box', () => {
  let whisper: WhisperDouble | undefined;
  afterEach(() => whisper?.close());

  const send = (seconds: number) => {
    const form = new FormData();
    form.append('file', wav(seconds), 'turn.wav');
    form.append('response_format', 'json');
    return fetch(`${whisper!.url}/inference`, { method: 'POST', body: form }).then((r) => r.json());
  };

  it('times a request by its audio: one encode window for a short turn, two past 30 s', async () => {
    whisper = await startWhisperDouble();
    const rates = hardwareProfile('cpu-mini-pc').stt['base.en'];
    whisper.profile = { rates, scale: 0.0001 };
    await send(2);
    await send(31);
    expect(whisper.requests.map((r) => r.timing)).toEqual([
      { audioSeconds: 2, ms: sttMs(rates, 2) },
      { audioSeconds: 31, ms: sttMs(rates, 31) },
    ]);
    expect(whisper.requests[1]!.timing!.ms - 2 * rates.encodeMsPerWindow.value).toBeCloseTo(31 * 3.3 * rates.decodeMsPerToken.value, 6);
  });

  it('records no timing without a profile', async () => {
    whisper = await startWhisperDouble();
    await send(2);
    expect(whisper.requests[0]!.timing).toBeUndefined();
  });
});
