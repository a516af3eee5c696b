import type { TurnTime } from './turn-time.js';

/**
 * How many agent calls at once one box holds: a queueing model over its shared engines,
 * computed rather than slept, so it is deterministic and takes milliseconds.
 *
 * The model: one Whisper server and one language model, each serving one request at a time in
 * arrival order (whisper.cpp's server locks its model around an inference; Ollama on one slot,
 * and more slots share the same compute, so they spread the wait without adding throughput),
 * and Piper with two synthesis slots (models/tts/priority-slots.ts). Each call alternates: the
 * caller speaks a turn; after the waited silence its audio goes to Whisper; the transcript to the
 * model, which holds the engine for the prompt and the whole reply but hands the first sentence
 * to Piper as soon as it is generated; the first audio is heard when Piper has that sentence;
 * the caller speaks again once the reply has been spoken. Calls start evenly spread over one
 * call's first turn, so the figure is for calls in progress, not a burst arriving at once.
 */
export interface SimulatedTurn {
  time: TurnTime;
  /** The caller speaking before the turn's end of speech, in ms. */
  speakingMs: number;
  /** The agent's whole reply spoken, in ms (the caller waits for it before the next turn). */
  replySpokenMs: number;
}

interface Server {
  freeAt: number[];
}

/** Start time on the earliest free slot; the slot is then held for `serviceMs`. */
function take(server: Server, arrival: number, serviceMs: number): number {
  let slot = 0;
  for (let i = 1; i < server.freeAt.length; i++) if (server.freeAt[i]! < server.freeAt[slot]!) slot = i;
  const start = Math.max(arrival, server.freeAt[slot]!);
  server.freeAt[slot] = start + serviceMs;
  return start;
}

type Event = { at: number; call: number; turn: number; kind: 'stt' | 'llm' | 'tts'; speechEnd: number };

/** End of speech → first audio for every turn of `calls` calls that each go through `script`, in ms. */
export function simulateCalls(calls: number, script: readonly SimulatedTurn[], waitedSilenceMs: number, ttsSlots = 2): number[] {
  const whisper: Server = { freeAt: [0] };
  const model: Server = { freeAt: [0] };
  const piper: Server = { freeAt: Array.from({ length: ttsSlots }, () => 0) };
  const latencies: number[] = [];
  const events: Event[] = [];
  const push = (e: Event) => {
    // Kept in time order (ties in insertion order), so each engine serves in arrival order.
    let i = events.length;
    while (i > 0 && events[i - 1]!.at > e.at) i--;
    events.splice(i, 0, e);
  };
  const first = script[0]!;
  for (let c = 0; c < calls; c++) {
    const speechEnd = (c * first.speakingMs) / calls + first.speakingMs;
    push({ at: speechEnd + waitedSilenceMs, call: c, turn: 0, kind: 'stt', speechEnd });
  }
  while (events.length) {
    const e = events.shift()!;
    const t = script[e.turn]!.time;
    if (e.kind === 'stt') {
      const start = take(whisper, e.at, t.busy.stt);
      push({ ...e, at: start + t.busy.stt, kind: 'llm' });
    } else if (e.kind === 'llm') {
      const start = take(model, e.at, t.busy.llm);
      push({ ...e, at: start + t.promptRead + t.firstSentence, kind: 'tts' });
    } else {
      const start = take(piper, e.at, t.busy.tts);
      const firstAudio = start + t.busy.tts;
      latencies.push(firstAudio - e.speechEnd);
      const next = e.turn + 1;
      if (next < script.length) {
        const speechEnd = firstAudio + script[e.turn]!.replySpokenMs + script[next]!.speakingMs;
        push({ at: speechEnd + waitedSilenceMs, call: e.call, turn: next, kind: 'stt', speechEnd });
      }
    }
  }
  return latencies;
}

/** The most calls at once whose end of speech → first audio p95 stays within `p95LimitMs` (0 when even one call does not). */
export function callsHeld(script: readonly SimulatedTurn[], waitedSilenceMs: number, p95LimitMs: number, maxCalls = 64): number {
  let held = 0;
  for (let n = 1; n <= maxCalls; n++) {
    if (p95(simulateCalls(n, script, waitedSilenceMs)) > p95LimitMs) break;
    held = n;
  }
  return held;
}

/** Nearest-rank 95th percentile. */
function p95(samples: readonly number[]): number {
  return nearestRank(samples, 95);
}

export function nearestRank(samples: readonly number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
