import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOllamaLanguageModel } from '../../models/llm/ollama.js';
import { LanguageModelError } from '../../models/llm/language-model.js';
import { createSpeechToText } from '../../models/stt/factory.js';
import { SpeechToTextError } from '../../models/stt/speech-to-text.js';
import { createWhisperServerStt } from '../../models/stt/whisper-server.js';
import { audioKey } from '../doubles/whisper/server.js';
import { speakToWav } from './audio.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const engines = useEngineDoubles();
let dir: string;
let wav: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engines-'));
  wav = speakToWav(dir, 'hello', 'Hello, this is Sarah. Please call me back.');
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('whisper.cpp server adapter', () => {
  it('sends 16 kHz mono WAV as multipart with json format and English, and returns the trimmed text', async () => {
    engines.whisper.transcripts.set(await audioKey(wav), 'Hello, this is Sarah. Please call me back.');
    const stt = createWhisperServerStt({ url: engines.whisper.url });
    const before = engines.whisper.requests.length;
    expect(await stt.transcribe(wav)).toEqual({ text: 'Hello, this is Sarah. Please call me back.' });
    const req = engines.whisper.requests[before]!;
    expect(req.fields).toMatchObject({ response_format: 'json', language: 'en' });
    expect(req.file).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
  });

  it('asked to detect the language, sends language=auto with verbose_json and returns the language and its probability', async () => {
    engines.whisper.transcripts.set(await audioKey(wav), 'Dzień dobry, ile kosztuje wymiana kranu?');
    engines.whisper.languageOf = () => ({ language: 'pl', probability: 0.91 });
    try {
      const stt = createWhisperServerStt({ url: engines.whisper.url });
      const before = engines.whisper.requests.length;
      expect(await stt.transcribe(wav, { language: 'auto' })).toEqual({ text: 'Dzień dobry, ile kosztuje wymiana kranu?', language: 'polish', languageProbability: 0.91 });
      expect(engines.whisper.requests[before]!.fields).toMatchObject({ response_format: 'verbose_json', language: 'auto' });

      // whisper.cpp before v1.7.6 names the language but reports no probability: none is made up.
      engines.whisper.noLanguageProbabilities = true;
      expect(await stt.transcribe(wav, { language: 'auto' })).toEqual({ text: 'Dzień dobry, ile kosztuje wymiana kranu?', language: 'polish' });
    } finally {
      engines.whisper.languageOf = () => ({ language: 'en', probability: 0.97 });
      engines.whisper.noLanguageProbabilities = false;
    }
  });

  it('classifies a 503 (model loading) as retryable and an unreadable recording as not', async () => {
    const stt = createWhisperServerStt({ url: engines.whisper.url });
    engines.whisper.failures.push({ status: 503, body: { error: { message: 'Loading model', code: 503 } } });
    const busy = await rejection(stt.transcribe(wav));
    expect(busy).toBeInstanceOf(SpeechToTextError);
    expect(busy).toMatchObject({ retryable: true, status: 503 });

    const junk = path.join(dir, 'junk.wav');
    fs.writeFileSync(junk, 'not audio at all');
    expect(await rejection(stt.transcribe(junk))).toMatchObject({ retryable: false });

    engines.whisper.failures.push({ status: 200, body: { error: 'failed to read WAV file' } });
    expect(await rejection(stt.transcribe(wav))).toMatchObject({ retryable: false });
  });

  it('gives up after its timeout and when the server is gone, both retryable', async () => {
    engines.whisper.failures.push({ delayMs: 5_000 });
    const slow = createWhisperServerStt({ url: engines.whisper.url, timeoutMs: 200 });
    const timedOut = await rejection(slow.transcribe(wav));
    expect(timedOut).toMatchObject({ retryable: true });
    expect(timedOut.message).toContain('within 200 ms');

    const gone = createWhisperServerStt({ url: 'http://127.0.0.1:9' });
    expect(await rejection(gone.transcribe(wav))).toMatchObject({ retryable: true });
  });

  it('a job stopped just as the upload starts leaves no stray rejection behind', async () => {
    // The worker's signal can fire between the resampling and the request (seen in CI as an
    // unhandled "ReadableStream is already closed" from undici's FormData encoder).
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => stray.push(reason);
    process.on('unhandledRejection', onStray);
    try {
      const stopped = createWhisperServerStt({ url: engines.whisper.url, fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.abort() }) });
      expect(await rejection(stopped.transcribe(wav))).toMatchObject({ retryable: true });
      for (let i = 0; i < 10; i++) await new Promise(setImmediate);
      expect(stray).toEqual([]);
    } finally {
      process.off('unhandledRejection', onStray);
    }
  });

  it('waits (retryable) when no Whisper service is configured', async () => {
    const err = await rejection(createSpeechToText(undefined, 'background').transcribe(wav));
    expect(err).toMatchObject({ retryable: true });
    expect(err.message).toContain('WHISPER_URL');
  });
});

describe('Ollama adapter', () => {
  it('chats without streaming, with keep_alive and options, and returns the reply', async () => {
    const llm = createOllamaLanguageModel({ host: engines.ollama.url, model: 'llama3.2:3b', keepAlive: '1h' });
    engines.ollama.script.push({ reply: 'Sarah wants a call back.' });
    const before = engines.ollama.requests.length;
    const out = await llm.chat([{ role: 'user', content: 'hi' }], { maxTokens: 100 });
    expect(out).toBe('Sarah wants a call back.');
    expect(engines.ollama.requests[before]).toMatchObject({
      path: '/api/chat',
      body: { model: 'llama3.2:3b', stream: false, keep_alive: '1h', messages: [{ role: 'user', content: 'hi' }], options: { num_predict: 100 } },
    });
  });

  it('times out through its AbortSignal (retryable) and honours the caller signal', async () => {
    const llm = createOllamaLanguageModel({ host: engines.ollama.url, model: 'llama3.2:3b', timeoutMs: 200 });
    engines.ollama.script.push({ delayMs: 5_000 });
    const err = await rejection(llm.chat([{ role: 'user', content: 'hi' }]));
    expect(err).toBeInstanceOf(LanguageModelError);
    expect(err).toMatchObject({ retryable: true });
    expect(err.message).toContain('within 200 ms');

    engines.ollama.script.push({ delayMs: 5_000 });
    const stop = new AbortController();
    const arrived = engines.ollama.requests.length + 1;
    const pending = rejection(llm.chat([{ role: 'user', content: 'hi' }], { signal: stop.signal }));
    await vi.waitFor(() => expect(engines.ollama.requests.length).toBe(arrived));
    stop.abort();
    expect(await pending).toMatchObject({ retryable: true });
  });

  it('classifies 5xx as retryable and a missing model as not', async () => {
    const llm = createOllamaLanguageModel({ host: engines.ollama.url, model: 'llama3.2:3b' });
    engines.ollama.script.push({ status: 500, error: 'llama runner process has terminated' });
    expect(await rejection(llm.chat([{ role: 'user', content: 'hi' }]))).toMatchObject({ retryable: true, status: 500 });
    const missing = createOllamaLanguageModel({ host: engines.ollama.url, model: 'nope:1b' });
    const err = await rejection(missing.chat([{ role: 'user', content: 'hi' }]));
    expect(err).toMatchObject({ retryable: false, status: 404 });
    expect(err.message).toContain('ollama pull');
  });

  it('double streams NDJSON by default, as Ollama does', async () => {
    engines.ollama.script.push({ reply: 'streamed reply text' });
    const res = await fetch(`${engines.ollama.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'llama3.2:3b', messages: [] }) });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.map((l) => l.message.content).join('')).toBe('streamed reply text');
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop' });
    const tags = (await (await fetch(`${engines.ollama.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models[0]?.name).toBe('llama3.2:3b');
  });
});
