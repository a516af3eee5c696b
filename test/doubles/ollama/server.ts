import type http from 'node:http';
import { loadedEngine, type EngineLoad, type LoadedEngine } from '../engine-load.js';
import { listen, readBody, sendJson, sleep } from './http-util.js';
import { firstSentenceEnd, llmTiming, type LlmProfile, type LlmTiming } from './profile-timing.js';

/**
 * A double of the Ollama HTTP API (docs/api.md): `POST /api/chat` and `/api/generate`
 * stream NDJSON chunks unless `"stream": false` (streaming is Ollama's default), the
 * last chunk carrying `done: true`, `done_reason` and the timing counters; `GET /api/tags`
 * lists the installed models; an unknown model answers 404 `{"error": "model \"x\" not found, try pulling it first"}`.
 * `POST /api/pull` streams Ollama's progress lines (`pulling manifest`, a layer's `total`/`completed`,
 * `success`) and lists the model afterwards, or fails with an `{"error"}` line while `pull.failures` lasts.
 */
export interface OllamaRequest {
  path: string;
  body: Record<string, any>;
  /** What the request cost on the simulated box while `profile` was set (ms before its scale). */
  timing?: LlmTiming;
}

interface OllamaScript {
  /** The reply text; when absent the default replier answers. */
  reply?: string;
  status?: number;
  error?: string;
  /** Hold the answer this long (a slow or stuck model). */
  delayMs?: number;
  /** Hold the answer until this settles: a model busy for exactly as long as the test needs, whatever the machine's load. */
  until?: Promise<unknown>;
  /** Close the socket without an answer. */
  drop?: boolean;
}

export interface OllamaDouble {
  url: string;
  requests: OllamaRequest[];
  models: string[];
  /** Consumed one per /api/chat or /api/generate request. */
  script: OllamaScript[];
  /** Applies to every request while set (an engine that stays down or slow). */
  always: OllamaScript | null;
  /** Answers requests no script entry covers. */
  replier: (req: OllamaRequest) => string;
  /** Characters per streamed chunk. */
  chunkSize: number;
  /** Set to behave like a loaded engine: slots, a queue beyond them, slower batches (test/doubles/engine-load.ts). */
  load: EngineLoad | null;
  /** The load model's figures while `load` is set (peak requests served at once, queue length). */
  readonly engine: LoadedEngine | null;
  /** Set to answer at a simulated box's speed: each request held for its prompt's and reply's tokens at the profile's rates (profile-timing.ts). Unset (the default): no delay beyond the script's. */
  profile: LlmProfile | null;
  /** `/api/pull`: how many pulls still fail (each with `error`), how many progress steps a pull reports, and what it waits for between them. */
  pull: PullScript;
  /** The models asked for by `/api/pull`, in order (failed pulls included). */
  pulls: string[];
  close(): Promise<void>;
}

interface PullScript {
  failures: number;
  error: string;
  steps: number;
  stepDelayMs: number;
  /** Hold the pull (after its first progress line) until this settles: a download as long as the test needs. */
  until?: Promise<unknown>;
}

/** `models` defaults to the model already pulled (['llama3.2:3b']); `[]` is a fresh Ollama that must pull first. */
export async function startOllamaDouble(opts: { models?: string[]; port?: number; pullFailures?: number } = {}): Promise<OllamaDouble> {
  const aborts = new AbortController();
  let engine: LoadedEngine | null = null;
  let load: EngineLoad | null = null;
  const state: Omit<OllamaDouble, 'url' | 'close'> = {
    requests: [],
    models: opts.models ?? ['llama3.2:3b'],
    script: [],
    always: null,
    replier: () => 'A caller left a message.',
    chunkSize: 8,
    profile: null,
    pull: { failures: opts.pullFailures ?? 0, error: 'pull model manifest: Get "https://registry.ollama.ai/v2/library/llama3.2/manifests/3b": dial tcp: lookup registry.ollama.ai: no such host', steps: 4, stepDelayMs: 0 },
    pulls: [],
    get load() {
      return load;
    },
    set load(l: EngineLoad | null) {
      load = l;
      engine = l ? loadedEngine(l) : null;
    },
    get engine() {
      return engine;
    },
  };

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method === 'GET' && path === '/api/tags') {
      return sendJson(res, 200, {
        models: state.models.map((name) => ({
          name,
          model: name,
          modified_at: '2026-01-01T00:00:00Z',
          size: 2_019_393_189,
          digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
          details: { format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
        })),
      });
    }
    if (req.method === 'GET' && (path === '/' || path === '/api/version')) {
      return path === '/' ? (res.writeHead(200), res.end('Ollama is running')) : sendJson(res, 200, { version: '0.12.0' });
    }
    if (req.method === 'POST' && path === '/api/pull') return pull(req, res);
    if (req.method !== 'POST' || (path !== '/api/chat' && path !== '/api/generate')) return sendJson(res, 404, '404 page not found');

    let body: Record<string, any>;
    try {
      body = JSON.parse((await readBody(req)).toString('utf8'));
    } catch {
      return sendJson(res, 400, { error: 'invalid character in request body' });
    }
    const record: OllamaRequest = { path, body };
    state.requests.push(record);
    const step = state.script.shift() ?? state.always ?? {};
    // The slot is held until the answer is written (or the client goes). A streamed reply timed
    // in parts takes its slot now and waits below; anything else waits its whole service here.
    const parts = engine && load?.firstPieceMs !== undefined && body.stream !== false ? await engine.acquire() : undefined;
    const release = parts?.release ?? (engine ? await engine.serve(aborts.signal) : undefined);
    if (release) {
      if (res.destroyed) release();
      else res.on('close', release);
    }
    if (step.delayMs) await sleep(step.delayMs, aborts.signal);
    if (step.until) await step.until;
    if (res.destroyed) return;
    if (step.drop) return void res.socket?.destroy();
    if (step.status) return sendJson(res, step.status, { error: step.error ?? 'scripted failure' });
    if (!body.model) return sendJson(res, 400, { error: 'model is required' });
    if (!state.models.includes(body.model)) return sendJson(res, 404, { error: `model "${body.model}" not found, try pulling it first` });

    const text = step.reply ?? state.replier(record);
    const profile = state.profile;
    const timing = profile ? llmTiming(profile.rates, body, text) : undefined;
    if (timing) record.timing = timing;
    const scale = profile?.scale ?? 1;
    const chat = path === '/api/chat';
    const piece = (content: string, done: boolean) => ({
      model: body.model,
      created_at: new Date().toISOString(),
      ...(chat ? { message: { role: 'assistant', content } } : { response: content }),
      done,
    });
    const final = {
      done_reason: 'stop',
      total_duration: 1_200_000_000,
      load_duration: 20_000_000,
      prompt_eval_count: timing?.promptTokens ?? 120,
      prompt_eval_duration: timing ? Math.round(timing.promptMs * 1e6) : 300_000_000,
      eval_count: Math.max(1, Math.ceil(text.length / 4)),
      eval_duration: timing ? Math.round((timing.totalMs - timing.promptMs) * 1e6) : 800_000_000,
      ...(chat ? {} : { context: [1, 2, 3] }),
    };
    if (body.stream === false) {
      if (timing) await sleep(timing.totalMs * scale, aborts.signal);
      if (res.destroyed) return;
      return sendJson(res, 200, { ...piece(text, true), ...final });
    }

    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const write = (from: number, to: number) => {
      for (let i = from; i < to; i += state.chunkSize) res.write(`${JSON.stringify(piece(text.slice(i, Math.min(to, i + state.chunkSize)), false))}\n`);
    };
    if (parts && load) {
      // The first sentence once it is written, the rest when the whole reply is.
      const split = firstSentenceEnd(text);
      await sleep(load.firstPieceMs! * parts.scale, aborts.signal);
      if (res.destroyed) return;
      write(0, split);
      await sleep((load.serviceMs - load.firstPieceMs!) * parts.scale, aborts.signal);
      if (res.destroyed) return;
      write(split, text.length);
    } else if (timing) {
      // On the simulated box: the first sentence once its tokens are generated, the rest at the reply's end.
      const split = firstSentenceEnd(text);
      await sleep(timing.firstPieceMs * scale, aborts.signal);
      if (res.destroyed) return;
      write(0, split);
      await sleep((timing.totalMs - timing.firstPieceMs) * scale, aborts.signal);
      if (res.destroyed) return;
      write(split, text.length);
    } else write(0, text.length);
    res.end(`${JSON.stringify({ ...piece('', true), ...final })}\n`);
  };

  const pull = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body: { model?: string; name?: string };
    try {
      body = JSON.parse((await readBody(req)).toString('utf8'));
    } catch {
      return sendJson(res, 400, { error: 'invalid character in request body' });
    }
    const model = body.model ?? body.name;
    if (!model) return sendJson(res, 400, { error: 'model is required' });
    state.pulls.push(model);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (o: object) => res.write(`${JSON.stringify(o)}\n`);
    line({ status: 'pulling manifest' });
    if (state.pull.failures > 0) {
      state.pull.failures -= 1;
      return void res.end(`${JSON.stringify({ error: state.pull.error })}\n`);
    }
    const total = 2_019_377_376;
    const digest = 'sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff';
    if (state.pull.until) await state.pull.until;
    for (let i = 1; i <= state.pull.steps; i++) {
      if (state.pull.stepDelayMs) await sleep(state.pull.stepDelayMs, aborts.signal);
      if (res.destroyed) return;
      line({ status: `pulling ${digest.slice(7, 19)}`, digest, total, completed: Math.round((total * i) / state.pull.steps) });
    }
    line({ status: 'verifying sha256 digest' });
    line({ status: 'writing manifest' });
    if (!state.models.includes(model)) state.models.push(model);
    res.end(`${JSON.stringify({ status: 'success' })}\n`);
  };

  const { url, close } = await listen((req, res) => void handler(req, res), opts.port);
  return Object.assign(state, {
    url,
    close: async () => {
      aborts.abort();
      await close();
    },
  });
}
