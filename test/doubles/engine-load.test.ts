import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadedEngine } from './engine-load.js';
import { startOllamaDouble, type OllamaDouble } from './ollama/server.js';
import { streamedUntil } from './ollama/streamed-text.js';

afterEach(() => vi.useRealTimers());

describe('the engine load model', () => {
  it('serves one request in serviceMs, four batched ones each 1.3× slower, and queues the fifth until a slot frees', async () => {
    vi.useFakeTimers();
    const engine = loadedEngine({ slots: 4, serviceMs: 1000, batchPenalty: 0.1 });
    const done: number[] = [];
    const start = Date.now();
    const lone = engine.serve().then((release) => (done.push(Date.now() - start), release()));
    await vi.advanceTimersByTimeAsync(1000);
    await lone;
    expect(done).toEqual([1000]);

    done.length = 0;
    const t0 = Date.now();
    const batch = [1, 2, 3, 4, 5].map(() => engine.serve().then((release) => (done.push(Date.now() - t0), release())));
    await vi.advanceTimersByTimeAsync(0);
    expect([engine.inService, engine.queued]).toEqual([4, 1]);
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(batch);
    // The first in service took 1 s (alone), the next three 1.1, 1.2, 1.3 s as the batch grew; the fifth waited for a slot.
    expect(done.slice(0, 4)).toEqual([1000, 1100, 1200, 1300]);
    expect(done[4]).toBe(1000 + 1300);
    expect(engine.peakInService).toBe(4);
  });
});

describe('the Ollama double under load', () => {
  let ollama: OllamaDouble | undefined;
  afterEach(() => ollama?.close());

  it('answers no more requests at once than its slots, queueing the rest', async () => {
    ollama = await startOllamaDouble();
    ollama.load = { slots: 2, serviceMs: 200, batchPenalty: 0.1 };
    const chat = () => fetch(`${ollama!.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'llama3.2:3b', messages: [], stream: false }) }).then((r) => r.json() as Promise<{ message: { content: string } }>);
    const replies = Promise.all([chat(), chat(), chat(), chat()]);
    await vi.waitFor(() => expect([ollama!.engine!.inService, ollama!.engine!.queued]).toEqual([2, 2]));
    expect((await replies).map((r) => r.message.content)).toEqual(Array(4).fill('A caller left a message.'));
    expect(ollama.engine!.peakInService).toBe(2);
    expect([ollama.engine!.inService, ollama.engine!.queued]).toEqual([0, 0]);
  });

  it('streams a reply timed in parts: the first sentence early, the slot held until the whole reply is written', async () => {
    ollama = await startOllamaDouble();
    ollama.load = { slots: 1, serviceMs: 600_000, batchPenalty: 0.1, firstPieceMs: 0 };
    ollama.replier = () => JSON.stringify({ intent: 'question', answered: true, answer: 'We open at eight. We close at six.' });
    const chat = () => fetch(`${ollama!.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'llama3.2:3b', messages: [] }) });
    const first = await chat();
    const { text, reader } = await streamedUntil(first, 'eight. ');
    expect(text).toBe('{"intent":"question","answered":true,"answer":"We open at eight. ');
    // The rest is still being written: the slot stays taken and a second request waits for it.
    void chat().catch(() => undefined);
    await vi.waitFor(() => expect(ollama!.engine!.queued).toBe(1));
    expect(ollama.engine!.inService).toBe(1);
    await reader.cancel();
  });
});
