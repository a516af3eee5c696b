import { afterEach, describe, expect, it } from 'vitest';
import { createModelReadiness, type ModelReadiness } from '../../core/engines/model-readiness.js';
import { ollamaHasModel, ollamaPull, type PullProgress } from '../../models/llm/ollama-pull.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { waitUntil } from '../helpers/wait.js';

const MODEL = 'llama3.2:3b';
const quiet = { info: () => undefined, warn: () => undefined };
let ollama: OllamaDouble | undefined;
let readiness: ModelReadiness | undefined;
afterEach(async () => {
  readiness?.stop();
  await ollama?.close();
});

/** Timers the test fires by hand: the back-off's waits are recorded, never slept. */
function manualTimers() {
  const pending: { fn: () => void; ms: number }[] = [];
  return {
    pending,
    setTimer: (fn: () => void, ms: number) => {
      const t = { fn, ms };
      pending.push(t);
      return () => pending.splice(pending.indexOf(t), 1);
    },
    fire() {
      const t = pending.shift();
      if (!t) throw new Error('no retry was scheduled');
      t.fn();
    },
  };
}

describe('the Ollama pull client against the double', () => {
  it('sees the model missing, pulls it with progress lines, then sees it listed', async () => {
    ollama = await startOllamaDouble({ models: [] });
    expect(await ollamaHasModel(ollama.url, MODEL)).toBe(false);
    const lines: PullProgress[] = [];
    await ollamaPull(ollama.url, MODEL, (p) => lines.push(p));
    expect(lines[0]).toEqual({ status: 'pulling manifest' });
    expect(lines.filter((l) => l.total).map((l) => Math.round((100 * l.completed!) / l.total!))).toEqual([25, 50, 75, 100]);
    expect(lines.at(-1)).toEqual({ status: 'success' });
    expect(await ollamaHasModel(ollama.url, MODEL)).toBe(true);
  });

  it("throws Ollama's words from an error line", async () => {
    ollama = await startOllamaDouble({ models: [], pullFailures: 1 });
    await expect(ollamaPull(ollama.url, MODEL, () => undefined)).rejects.toThrow(/Ollama could not pull llama3\.2:3b: pull model manifest: .*no such host/);
    expect(await ollamaHasModel(ollama.url, MODEL)).toBe(false);
  });

  it('reads a name without a tag as :latest, as Ollama does', async () => {
    ollama = await startOllamaDouble({ models: ['qwen2.5:latest'] });
    expect(await ollamaHasModel(ollama.url, 'qwen2.5')).toBe(true);
  });
});

describe('model readiness (the language model pulled on first start)', () => {
  it('is ready after one check when the model is already there, and pulls nothing', async () => {
    ollama = await startOllamaDouble();
    readiness = createModelReadiness({ hosts: [ollama.url], model: MODEL, log: quiet });
    expect(readiness.state().state).toBe('ready'); // not started: the operator's Ollama, not watched
    readiness.start();
    expect(readiness.ready()).toBe(false);
    expect(readiness.state()).toEqual({ state: 'checking', model: MODEL });
    await waitUntil(() => expect(readiness!.ready()).toBe(true), 10_000);
    expect(ollama.pulls).toEqual([]);
  });

  it('pulls a missing model once, reporting its percentage, however often it is started', async () => {
    ollama = await startOllamaDouble({ models: [] });
    let release!: () => void;
    ollama.pull.until = new Promise<void>((r) => (release = r));
    readiness = createModelReadiness({ hosts: [ollama.url], model: MODEL, log: quiet });
    readiness.start();
    readiness.start();
    await waitUntil(() => expect(readiness!.state().state === 'downloading').toBe(true), 10_000);
    expect(readiness.state()).toEqual({ state: 'downloading', model: MODEL, percent: 0 });
    expect(readiness.ready()).toBe(false);
    release();
    await waitUntil(() => expect(readiness!.ready()).toBe(true), 10_000);
    expect(ollama.pulls).toEqual([MODEL]);
    expect(readiness.state()).toEqual({ state: 'ready', model: MODEL });
  });

  it('says a failed pull plainly with its next try, and backs off 10 s, 20 s, 40 s before it succeeds', async () => {
    ollama = await startOllamaDouble({ models: [], pullFailures: 3 });
    const timers = manualTimers();
    const t0 = Date.parse('2026-12-03T14:00:00Z');
    readiness = createModelReadiness({ hosts: [ollama.url], model: MODEL, log: quiet, setTimer: timers.setTimer, now: () => t0 });
    readiness.start();
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await waitUntil(() => expect(timers.pending.length === 1).toBe(true), 10_000);
      waits.push(timers.pending[0]!.ms);
      const s = readiness.state();
      expect(s.state).toBe('failed');
      expect(s.error).toMatch(/^Ollama could not pull llama3\.2:3b: pull model manifest/);
      expect(s.nextRetryAt).toBe(new Date(t0 + timers.pending[0]!.ms).toISOString());
      timers.fire();
    }
    expect(waits).toEqual([10_000, 20_000, 40_000]);
    await waitUntil(() => expect(readiness!.ready()).toBe(true), 10_000);
    expect(ollama.pulls).toEqual([MODEL, MODEL, MODEL, MODEL]);
    expect(timers.pending).toEqual([]);
  });

  it('never waits more than 10 minutes between tries', async () => {
    ollama = await startOllamaDouble({ models: [], pullFailures: 9 });
    const timers = manualTimers();
    readiness = createModelReadiness({ hosts: [ollama.url], model: MODEL, log: quiet, setTimer: timers.setTimer });
    readiness.start();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      await waitUntil(() => expect(timers.pending.length === 1).toBe(true), 10_000);
      waits.push(timers.pending[0]!.ms);
      timers.fire();
    }
    expect(waits.slice(5)).toEqual([320_000, 600_000, 600_000]);
  });

  it('says what to do when Ollama is not there at all', async () => {
    ollama = await startOllamaDouble();
    const url = ollama.url;
    await ollama.close();
    ollama = undefined;
    const timers = manualTimers();
    readiness = createModelReadiness({ hosts: [url], model: MODEL, log: quiet, setTimer: timers.setTimer });
    readiness.start();
    await waitUntil(() => expect(timers.pending.length === 1).toBe(true), 10_000);
    expect(readiness.state().error).toMatch(/^Ollama is unreachable at .*check that the ollama service is running$/);
  });
});
