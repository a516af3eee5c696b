import type { Log } from '../../contract/log.js';
import { maskUrl } from '../../contract/mask-url.js';
import { ollamaHasModel, ollamaPull, type PullProgress } from '../../models/llm/ollama-pull.js';
import { backoffDelayMs, type BackoffPolicy } from '../time/backoff.js';

/** What the admin dashboard shows of the language model (GET /api/admin/engines). */
export interface ModelState {
  state: 'ready' | 'checking' | 'downloading' | 'failed';
  model: string;
  /** While downloading: the share of the model's bytes fetched so far (0–100). */
  percent?: number;
  /** When failed: Ollama's words, or why it could not be reached. */
  error?: string;
  /** When failed: when the next attempt starts (ISO). */
  nextRetryAt?: string;
}

export interface ModelReadiness {
  /** The state across every OLLAMA_URL endpoint: ready only once each has the model. */
  state(): ModelState;
  /** Whether agent mode may start a conversation: true while the service was never started (the operator's Ollama, not watched). */
  ready(): boolean;
  /** Checks each endpoint once and pulls the model where it is missing (once, never twice at a time). */
  start(): void;
  stop(): void;
}

export interface ModelReadinessDeps {
  hosts: string[];
  model: string;
  log: Pick<Log, 'info' | 'warn'>;
  fetch?: typeof fetch;
  now?: () => number;
  /** Injectable so tests run the back-off without waiting (default setTimeout, unref'd). */
  setTimer?: (fn: () => void, ms: number) => () => void;
  /** 10 s doubling to 10 min: a registry that is down for an hour is tried 9 times, not 360. */
  backoff?: BackoffPolicy;
}

const MODEL_PULL_BACKOFF: BackoffPolicy = { baseMs: 10_000, maxMs: 10 * 60_000 };

interface EndpointState {
  host: string;
  state: ModelState['state'];
  percent?: number;
  error?: string;
  nextRetryAt?: number;
  failures: number;
  busy: boolean;
  cancelRetry?: () => void;
}

/**
 * Issue 60 item 2: the language model without a manual step. On start each Ollama endpoint is
 * asked once whether it has OLLAMA_MODEL (`/api/tags`); a missing model is pulled (`/api/pull`),
 * its progress kept for the admin dashboard; a failed check or pull is tried again after a
 * back-off. Until every endpoint lists the model, agent-mode calls are answered in voicemail mode
 * with the owner's greeting (pbx/flows/agent/admission.ts). Nothing here runs per request.
 */
export function createModelReadiness(deps: ModelReadinessDeps): ModelReadiness {
  const now = deps.now ?? Date.now;
  const policy = deps.backoff ?? MODEL_PULL_BACKOFF;
  const setTimer =
    deps.setTimer ??
    ((fn, ms) => {
      const t = setTimeout(fn, ms);
      t.unref();
      return () => clearTimeout(t);
    });
  const endpoints: EndpointState[] = deps.hosts.map((host) => ({ host, state: 'checking', failures: 0, busy: false }));
  let started = false;
  let stopped = false;
  const aborts = new AbortController();

  const attempt = async (ep: EndpointState) => {
    if (ep.busy || stopped) return;
    ep.busy = true;
    ep.cancelRetry = undefined;
    try {
      if (await ollamaHasModel(ep.host, deps.model, deps.fetch)) return markReady(ep);
      ep.state = 'downloading';
      ep.percent = 0;
      ep.error = undefined;
      deps.log.info({ host: maskUrl(ep.host), model: deps.model }, 'the language model is missing on Ollama: downloading it');
      await ollamaPull(ep.host, deps.model, (p) => progress(ep, p), { signal: aborts.signal, fetch: deps.fetch });
      if (!(await ollamaHasModel(ep.host, deps.model, deps.fetch))) throw new Error(`Ollama finished pulling ${deps.model} but does not list it`);
      markReady(ep);
    } catch (err) {
      if (stopped) return;
      ep.failures += 1;
      const waitMs = backoffDelayMs(ep.failures, policy);
      ep.state = 'failed';
      ep.percent = undefined;
      ep.error = (err as Error).message;
      ep.nextRetryAt = now() + waitMs;
      deps.log.warn({ host: maskUrl(ep.host), model: deps.model, retryInMs: waitMs, error: ep.error }, 'the language model could not be checked or downloaded: trying again later');
      ep.cancelRetry = setTimer(() => void attempt(ep), waitMs);
    } finally {
      ep.busy = false;
    }
  };

  const markReady = (ep: EndpointState) => {
    ep.state = 'ready';
    ep.percent = undefined;
    ep.error = undefined;
    ep.nextRetryAt = undefined;
    ep.failures = 0;
    deps.log.info({ host: maskUrl(ep.host), model: deps.model }, 'the language model answers: agent mode is available');
  };

  // Ollama reports each layer's bytes; the model's share is the biggest layer's (the weights are nearly all of it).
  const progress = (ep: EndpointState, p: PullProgress) => {
    if (!p.total || p.completed === undefined || p.total < 1_000_000) return;
    ep.percent = Math.min(100, Math.floor((p.completed / p.total) * 100));
  };

  return {
    state() {
      if (!started) return { state: 'ready', model: deps.model };
      const failed = endpoints.find((e) => e.state === 'failed');
      if (failed) return { state: 'failed', model: deps.model, error: failed.error, ...(failed.nextRetryAt ? { nextRetryAt: new Date(failed.nextRetryAt).toISOString() } : {}) };
      const downloading = endpoints.filter((e) => e.state === 'downloading');
      if (downloading.length > 0) return { state: 'downloading', model: deps.model, percent: Math.min(...downloading.map((e) => e.percent ?? 0)) };
      if (endpoints.some((e) => e.state === 'checking')) return { state: 'checking', model: deps.model };
      return { state: 'ready', model: deps.model };
    },
    ready() {
      return !started || endpoints.every((e) => e.state === 'ready');
    },
    start() {
      if (started) return;
      started = true;
      for (const ep of endpoints) void attempt(ep);
    },
    stop() {
      stopped = true;
      aborts.abort();
      for (const ep of endpoints) ep.cancelRetry?.();
    },
  };
}
