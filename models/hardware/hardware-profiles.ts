/**
 * What the engines cost on the boxes operators buy (issue 61 item 3), as published figures.
 * Pure data: the functions that turn these rates into milliseconds are in engine-time.ts; the
 * benches (bench/hardware-sim.ts), the engine doubles and the self-test's advice read them.
 *
 * Every figure carries where it comes from and what was measured. Where no one has published
 * the figure for that box and model, it is derived from one that was and says so (`estimate`):
 * - LLM rates for another model size scale with the model: prompt reading is compute-bound, so
 *   it scales with the parameter count; generation is memory-bound, so with the weights' size
 *   (Q4_K_M GGUF: Llama 3.1 8B 4.58 GiB / 8.03 B, Llama 3.2 3B 1.87 GiB / 3.21 B, a 1B
 *   0.62 GiB / 1.1 B, as llama-bench prints them).
 * - whisper.cpp's encoder runs on a whole 30 s window whatever the clip's length (the server's
 *   default audio context), so STT is a fixed encode per window plus a decode per token; the
 *   figures are `whisper-bench`'s Encode column and its Decode column over its 256 decode runs.
 */

export type LlmSize = '1b' | '3b' | '8b';
export type WhisperModel = 'base.en' | 'small.en' | 'large-v3-turbo';
export type BoxId = 'cpu-mini-pc' | 'igpu-mini-pc' | 'consumer-gpu';

export const LLM_SIZES: readonly LlmSize[] = ['1b', '3b', '8b'];
export const WHISPER_MODELS: readonly WhisperModel[] = ['base.en', 'small.en', 'large-v3-turbo'];

export interface Figure {
  value: number;
  /** A URL. */
  source: string;
  /** What the source measured, on what. */
  measured: string;
  /** Set when the value is derived rather than measured: how. */
  estimate?: string;
}

export interface LlmRates {
  promptTokensPerSecond: Figure;
  generationTokensPerSecond: Figure;
}

export interface SttRates {
  /** One 30 s encoder window. */
  encodeMsPerWindow: Figure;
  decodeMsPerToken: Figure;
}

export interface TtsRates {
  /** Seconds of synthesis per second of speech. */
  realTimeFactor: Figure;
}

export interface HardwareProfile {
  id: BoxId;
  name: string;
  example: string;
  llm: Record<LlmSize, LlmRates>;
  stt: Record<WhisperModel, SttRates>;
  /** Piper, a medium-quality voice (the product's default engine). */
  tts: TtsRates;
}

const NORMIEBENCH_N100 = 'https://github.com/brand-o/normiebench/issues/38';
const NORMIEBENCH_8840U = 'https://github.com/brand-o/normiebench/issues/10';
const GEERLING_3060 = 'https://github.com/geerlingguy/ai-benchmarks/issues/40';
const DMATORA_3080 = 'https://github.com/dmatora/LLM-inference-speed-benchmarks/issues/12';
const WHISPER_BENCH = 'https://github.com/ggml-org/whisper.cpp/issues/89';
const PIPER_SPEED = 'https://github.com/rhasspy/piper/issues/235';

const SIZE = { '8b': { params: 8.03, gib: 4.58 }, '3b': { params: 3.21, gib: 1.87 }, '1b': { params: 1.1, gib: 0.62 } } as const;

/** A rate for `to` from a measured rate for `from`: prompt by parameters, generation by weights' size. */
function scaled(rates: LlmRates, from: LlmSize, to: LlmSize): LlmRates {
  const f = SIZE[from];
  const t = SIZE[to];
  const label = from.toUpperCase();
  return {
    promptTokensPerSecond: {
      ...rates.promptTokensPerSecond,
      value: round((rates.promptTokensPerSecond.value * f.params) / t.params),
      estimate: `scaled from the ${label} figure by parameter count (${f.params} B → ${t.params} B)`,
    },
    generationTokensPerSecond: {
      ...rates.generationTokensPerSecond,
      value: round((rates.generationTokensPerSecond.value * f.gib) / t.gib),
      estimate: `scaled from the ${label} figure by the weights' size (${f.gib} → ${t.gib} GiB)`,
    },
  };
}

function round(n: number): number {
  return n >= 100 ? Math.round(n) : Math.round(n * 10) / 10;
}

const n100At8b: LlmRates = {
  promptTokensPerSecond: { value: 6.53, source: NORMIEBENCH_N100, measured: 'llama-bench pp512, Llama 3.1 8B Q4_K_M, CPU backend, Intel N100 (AWOW AK-10, 16 GB, Windows)' },
  generationTokensPerSecond: { value: 3.01, source: NORMIEBENCH_N100, measured: 'llama-bench tg128, same run' },
};

const r8840uAt8b: LlmRates = {
  promptTokensPerSecond: { value: 253.57, source: NORMIEBENCH_8840U, measured: 'llama-bench pp512, Llama 3.1 8B Q4_K_M, Vulkan on the Radeon 780M, Ryzen 7 8840U (MinisForum V3, 16 GB)' },
  generationTokensPerSecond: { value: 16.31, source: NORMIEBENCH_8840U, measured: 'llama-bench tg128, same run' },
};

const rtx3060At1b: LlmRates = {
  promptTokensPerSecond: { value: 6744, source: GEERLING_3060, measured: 'llama-bench pp512, TinyLlama 1.1B Q4_K_M, Vulkan, RTX 3060 12 GB, all layers on the GPU' },
  generationTokensPerSecond: { value: 279, source: GEERLING_3060, measured: 'llama-bench tg128, same run' },
};

/** The 3060 has about 0.43× the 3080's tensor throughput (51 vs 119 FP16 TFLOPS) and 0.47× its memory bandwidth (360 vs 760 GB/s), per NVIDIA's specifications. */
const rtx3060At8b: LlmRates = {
  promptTokensPerSecond: {
    value: 1630,
    source: DMATORA_3080,
    measured: 'llama.cpp prompt evaluation 3,807 tokens/s, Llama 3.1 8B Q4_K_M, RTX 3080',
    estimate: "scaled by the 3060's 0.43× tensor throughput; inside the 1,200–2,400 issue 61 quotes for one consumer GPU",
  },
  generationTokensPerSecond: {
    value: 53,
    source: DMATORA_3080,
    measured: 'llama.cpp token generation 112 tokens/s, same run',
    estimate: "scaled by the 3060's 0.47× memory bandwidth; an RTX 4060 Laptop measured 47.2 tokens/s for llama3.1:8b under Ollama (https://github.com/AlexsJones/llmfit/pull/958)",
  },
};

const PI5 = 'whisper-bench, 4 threads, NEON, Raspberry Pi 5 (4 × Cortex-A76)';
const PI5_AS_N100 = 'the Pi 5 stands in for the N100 (four small cores each; a Ryzen 5 4500U at 4 threads measured base.en 2,092 / small.en 6,919 ms in the same thread)';
const GRE = 'whisper-bench, Vulkan, Radeon RX 6750 GRE 12 GB (a consumer GPU of the 3060 class)';
const TURBO_ENCODER = "large-v3-turbo keeps large-v3's encoder (32 layers, width 1280)";

const cpuStt: Record<WhisperModel, SttRates> = {
  'base.en': {
    encodeMsPerWindow: { value: 2465, source: WHISPER_BENCH, measured: `${PI5}: base.en encode 2,465 ms`, estimate: PI5_AS_N100 },
    decodeMsPerToken: { value: 1.42, source: WHISPER_BENCH, measured: `${PI5}: base.en decode 363.9 ms / 256 runs`, estimate: PI5_AS_N100 },
  },
  'small.en': {
    encodeMsPerWindow: { value: 8342, source: WHISPER_BENCH, measured: `${PI5}: small.en encode 8,342 ms`, estimate: PI5_AS_N100 },
    decodeMsPerToken: { value: 4.37, source: WHISPER_BENCH, measured: `${PI5}: small.en decode 1,119 ms / 256 runs`, estimate: PI5_AS_N100 },
  },
  'large-v3-turbo': {
    encodeMsPerWindow: {
      value: 54900,
      source: WHISPER_BENCH,
      measured: `${PI5}: medium.en encode 26,408 ms`,
      estimate: `${TURBO_ENCODER}: 2.08× medium's encoder arithmetic (32 × 1280² against 24 × 1024²); ${PI5_AS_N100}`,
    },
    decodeMsPerToken: { value: 4.1, source: WHISPER_BENCH, measured: `${PI5}: small.en decode 4.37 ms a token`, estimate: "turbo's 4 decoder layers of width 1280 do 0.93× small's 12 of width 768" },
  },
};

/** The 780M at a quarter of the RX 6750 GRE: 12 RDNA 3 compute units on shared DDR5 against 40 RDNA 2 units on their own GDDR6. */
const IGPU_FROM_GRE = "× 4 for the 780M's 12 compute units on shared memory against the 6750 GRE's 40 on its own (estimate)";

const gpuStt: Record<WhisperModel, SttRates> = {
  'base.en': {
    encodeMsPerWindow: { value: 25.3, source: WHISPER_BENCH, measured: `${GRE}: base encode 25.3 ms` },
    decodeMsPerToken: { value: 1, source: WHISPER_BENCH, measured: `${GRE}: encode only`, estimate: 'about 1 ms a token on a GPU (decode is a small part of a turn)' },
  },
  'small.en': {
    encodeMsPerWindow: { value: 82.4, source: WHISPER_BENCH, measured: `${GRE}: small encode 82.4 ms` },
    decodeMsPerToken: { value: 1.5, source: WHISPER_BENCH, measured: `${GRE}: encode only`, estimate: 'about 1.5 ms a token on a GPU' },
  },
  'large-v3-turbo': {
    encodeMsPerWindow: { value: 476, source: WHISPER_BENCH, measured: `${GRE}: large-v2 encode 476 ms`, estimate: `${TURBO_ENCODER}, the same size as large-v2's` },
    decodeMsPerToken: { value: 1.5, source: WHISPER_BENCH, measured: `${GRE}: encode only`, estimate: 'about 1.5 ms a token (4 decoder layers)' },
  },
};

function onIntegratedGpu(rates: Record<WhisperModel, SttRates>, k: number, why: string): Record<WhisperModel, SttRates> {
  const out = {} as Record<WhisperModel, SttRates>;
  for (const m of WHISPER_MODELS) {
    const r = rates[m];
    out[m] = {
      encodeMsPerWindow: { ...r.encodeMsPerWindow, value: round(r.encodeMsPerWindow.value * k), estimate: [r.encodeMsPerWindow.estimate, why].filter(Boolean).join('; ') },
      decodeMsPerToken: { ...r.decodeMsPerToken, value: r.decodeMsPerToken.value * 2, estimate: [r.decodeMsPerToken.estimate, '× 2 on the integrated GPU'].filter(Boolean).join('; ') },
    };
  }
  return out;
}

const PIPER_AUTHOR = "Piper's author: medium voices run faster than real time on a Raspberry Pi 4; the high-quality voice runs at RTF 0.082 on a Ryzen 9 5950X";

export const HARDWARE_PROFILES: readonly HardwareProfile[] = [
  {
    id: 'cpu-mini-pc',
    name: 'CPU-only mini PC',
    example: 'Intel N100, 16 GB',
    llm: { '8b': n100At8b, '3b': scaled(n100At8b, '8b', '3b'), '1b': scaled(n100At8b, '8b', '1b') },
    stt: cpuStt,
    tts: { realTimeFactor: { value: 0.1, source: PIPER_SPEED, measured: PIPER_AUTHOR, estimate: 'RTF 0.1 for a medium voice on the N100 (a few times a Pi 4)' } },
  },
  {
    id: 'igpu-mini-pc',
    name: 'Mini PC with an integrated GPU',
    example: 'AMD Ryzen 7 8840U with Radeon 780M, 32 GB',
    llm: { '8b': r8840uAt8b, '3b': scaled(r8840uAt8b, '8b', '3b'), '1b': scaled(r8840uAt8b, '8b', '1b') },
    stt: onIntegratedGpu(gpuStt, 4, IGPU_FROM_GRE),
    tts: { realTimeFactor: { value: 0.04, source: PIPER_SPEED, measured: PIPER_AUTHOR, estimate: 'RTF 0.04 for a medium voice on eight Zen 4 cores (half the high voice on a 5950X)' } },
  },
  {
    id: 'consumer-gpu',
    name: 'One consumer GPU',
    example: 'NVIDIA RTX 3060 12 GB in a desktop',
    llm: { '1b': rtx3060At1b, '3b': scaled(rtx3060At1b, '1b', '3b'), '8b': rtx3060At8b },
    stt: gpuStt,
    tts: { realTimeFactor: { value: 0.04, source: PIPER_SPEED, measured: PIPER_AUTHOR, estimate: "RTF 0.04 for a medium voice on the desktop's CPU (Piper runs on the CPU)" } },
  },
];

export function hardwareProfile(id: BoxId): HardwareProfile {
  const p = HARDWARE_PROFILES.find((h) => h.id === id);
  if (!p) throw new Error(`No hardware profile called "${id}".`);
  return p;
}
