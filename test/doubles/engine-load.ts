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
 * A streamed reply (`firstPieceMs` set) starts sooner than it ends: its first sentence comes
 * `firstPieceMs` into the service (scaled the same way), the rest at its end; the slot is held
 * throughout, as a real server's is while it writes the rest of the reply.
 *
 * The figures it rests on:
 * - serviceMs: llama3.2:3b (the default OLLAMA_MODEL) answers a short prompt in 1,435 ms
 *   mean, served alone by Ollama on an RTX 4080 laptop GPU (Banterhearts TR128, phase 1,
 *   chimeraforge.vercel.app/reports/technical-report-128). Tests scale it down to keep fast.
 * - firstPieceMs 400 for that model: about 0.1 s to the first token (0.088 s warm for
 *   llama3.1:8b q4_0 on the same GPU, chimeraforge.vercel.app/reports/ollama-benchmark-report)
 *   and about 30 tokens before the first sentence is complete (the reply's JSON keys, then a
 *   short sentence) at about 100 tokens/s (76.6 tokens/s for that 8B model, 102.9 for a 4B one,
 *   TR108; a 3B model is at least as fast).
 * - batchPenalty 0.1: four parallel slots give 3–4× the throughput of one (reports on
 *   OLLAMA_NUM_PARALLEL=4 citing Ollama's FAQ); 0.1 gives 4 / 1.3 = 3.1×, the low end, so
 *   each of four batched requests takes 1.3× as long as one alone.
 */
export interface EngineLoad {
  slots: number;
  serviceMs: number;
  batchPenalty: number;
  /** When a streamed reply's first sentence comes, into its service (a language model's); unset: all at the end. */
  firstPieceMs?: number;
}

export const GPU_BATCH_PENALTY = 0.1;

export interface LoadedEngine {
  /** Waits for a slot, then for the request's service time; resolves with a `release` for its slot. */
  serve(signal?: AbortSignal): Promise<() => void>;
  /**
   * Waits for a slot; resolves with how much slower than alone this request is served (the
   * batch it joins) and the slot's `release`. For a double that times a reply in parts.
   */
  acquire(): Promise<{ scale: number; release: () => void }>;
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
  const acquire = async () => {
    if (inService < load.slots) inService++;
    else await new Promise<void>((r) => waiting.push(r)); // the slot passes straight to us
    peak = Math.max(peak, inService);
    return { scale: 1 + load.batchPenalty * (inService - 1), release };
  };
  return {
    acquire,
    async serve(signal) {
      const { scale } = await acquire();
      await sleep(load.serviceMs * scale, signal);
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
