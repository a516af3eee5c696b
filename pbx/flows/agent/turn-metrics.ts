import type { Speculation } from './speculation.js';

// Where a turn's time went, stage by stage, for the latency benchmark and the flow's figures.

/** Per-turn figures for the latency benchmark (all in ms). */
export interface TurnMetrics {
  turn: number;
  kind: string;
  /** Silence waited before the turn's work started (the speculation point, or the whole end-of-turn silence). */
  vadWaitMs: number;
  sttMs: number;
  /** From sending the conversation to the model to its first speakable sentence (or its whole reply). */
  llmFirstMs: number;
  ttsFirstMs: number;
  /** First audio ready while the end-of-turn silence had not yet passed (speculative turns). */
  holdMs: number;
  /** Caller's end of speech → first agent frame on the wire. */
  totalMs: number;
  /** What is left: the core's own work. */
  overheadMs: number;
  /** The silence that ended the turn. */
  commitSilenceMs: number;
  /** The end-of-turn silence the rules chose for it (commitSilenceMs can be longer: frames late on a loaded machine). */
  endSilenceMs: number;
  /** The turn adopted work started before it ended. */
  speculated: boolean;
  /** Model calls started speculatively for this turn, cancelled ones included. */
  speculativeLlmCalls: number;
}

export interface BargeInMetrics {
  /** Agent speech still queued when the caller's speech paused it (dropped if it is a real turn). */
  pausedWithQueuedMs: number;
}

/** When each stage of a turn finished (ms, the conversation's clock), for TurnMetrics. */
export interface TurnStages {
  turn: number;
  endOfSpeech: number;
  workStart: number;
  commitAt: number;
  commitSilenceMs: number;
  endSilenceMs: number;
  sttDone?: number;
  llmStart?: number;
  firstText?: number;
  /** The first sentence was handed to the voice: only its synthesis is left (the stall watch's hold waits on it). */
  voiceAt?: number;
  speculated: boolean;
  speculativeLlmCalls: number;
}

/** The first sentence reached the wire: its synthesis time, when it left, when its audio was ready. */
export type FirstAudio = (ttsMs: number, at: number, readyAt: number, kind?: string) => void;

/** A committed turn's stages so far: when its work started (a speculation's, or now) and the silence that ended it. */
export function startStages(turn: number, spec: Speculation | undefined, detectedAt: number, silenceMs: number, endSilenceMs: number, speculativeLlmCalls: number): TurnStages {
  return {
    turn,
    endOfSpeech: spec?.endOfSpeech ?? detectedAt - silenceMs,
    workStart: spec?.startedAt ?? detectedAt,
    commitAt: detectedAt,
    commitSilenceMs: silenceMs,
    endSilenceMs,
    speculated: spec !== undefined,
    speculativeLlmCalls,
  };
}

/** Reports the turn's figures once its first audio reaches the wire; the rest is the core's own overhead. */
export function metricsFor(st: TurnStages, kind: string, report: ((m: TurnMetrics) => void) | undefined): FirstAudio {
  return (ttsFirstMs, firstFrameAt, readyAt, k) => {
    const vadWaitMs = st.workStart - st.endOfSpeech;
    const sttMs = (st.sttDone ?? st.workStart) - st.workStart;
    const llmFirstMs = st.llmStart !== undefined && st.firstText !== undefined ? st.firstText - st.llmStart : 0;
    const holdMs = Math.max(0, st.commitAt - readyAt);
    const totalMs = firstFrameAt - st.endOfSpeech;
    report?.({
      turn: st.turn,
      kind: k ?? kind,
      vadWaitMs,
      sttMs,
      llmFirstMs,
      ttsFirstMs,
      holdMs,
      totalMs,
      overheadMs: totalMs - vadWaitMs - sttMs - llmFirstMs - ttsFirstMs - holdMs,
      commitSilenceMs: st.commitSilenceMs,
      endSilenceMs: st.endSilenceMs,
      speculated: st.speculated,
      speculativeLlmCalls: st.speculativeLlmCalls,
    });
  };
}
