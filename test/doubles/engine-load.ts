import { sleep } from './ollama/http-util.js';

/**
 * How a real engine behaves under load, for the Ollama and Whisper doubles.
 *
 * The model: an engine runs `slots` requests at once (Ollama's OLLAMA_NUM_PARALLEL; one for
 * whisper.cpp's server, which locks its model around each inference) and queues the rest in
 * arrival order. A request alone takes `serviceMs`; each other request in the same batch
 * makes it `batchPenalty` slower, because a batched decode step reads the weights once for
 * every sequence but does each sequence's arithmetic:
 *
 *   service(b) = serviceMs × (1 + batchPenalty × (b − 1)),  b = requests being served
 *
 * The figures it rests on:
 * - serviceMs: llama3.2:3b (the default OLLAMA_MODEL) answers a short prompt in 1,435 ms
 *   mean, served alone by Ollama on an RTX 4080 laptop GPU (Banterhearts TR128, phase 1,
 *   chimeraforge.vercel.app/reports/technical-report-128). Tests scale it down to keep fast.
 * - batchPenalty 0.1: four parallel slots give 3–4× the throughput of one (reports on
 *   OLLAMA_NUM_PARALLEL=4 citing Ollama's FAQ); 0.1 gives 4 / 1.3 = 3.1×, the low end, so
 *   each of four batched requests takes 1.3× as long as one alone.
 */
export interface EngineLoad {
  slots: number;
  serviceMs: number;
  batchPenalty: number;
}

export const GPU_BATCH_PENALTY = 0.1;

export interface LoadedEngine {
  /** Waits for a slot, then for the request's service time; resolves with a `release` for its slot. */
  serve(signal?: AbortSignal): Promise<() => void>;
  readonly inService: number;
  readonly queued: number;
  /** The most requests ever served at once: never above `slots`. */
  readonly peakInService: number;
}

export function loadedEngine(load: EngineLoad): LoadedEngine {
  let inService = 0;
  let peak = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inService--;
  };
  return {
    async serve(signal) {
      if (inService < load.slots) inService++;
      else await new Promise<void>((r) => waiting.push(r)); // the slot passes straight to us
      peak = Math.max(peak, inService);
      await sleep(load.serviceMs * (1 + load.batchPenalty * (inService - 1)), signal);
      return release;
    },
    get inService() {
      return inService;
    },
    get queued() {
      return waiting.length;
    },
    get peakInService() {
      return peak;
    },
  };
}
