import { generationMs, promptReadMs, sttMs, ttsMs } from './engine-time.js';
import type { HardwareProfile, LlmSize, WhisperModel } from './hardware-profiles.js';

/** A box and the models chosen for it. */
export interface EngineChoice {
  box: HardwareProfile;
  llm: LlmSize;
  whisper: WhisperModel;
}

/** One agent turn as the engines see it; token counts come from the product's own prompt. */
export interface TurnLoad {
  /** The caller's words, in seconds of audio sent to Whisper. */
  audioSeconds: number;
  /** Tokens the model must read before it answers (the part its prompt cache does not hold). */
  promptTokens: number;
  /** Tokens generated until the first sentence is complete (the reply's JSON keys, then the sentence). */
  tokensToFirstSentence: number;
  /** Tokens of the whole reply (the engine is busy until the last). */
  replyTokens: number;
  /** The first sentence (or clause) that is synthesised first. */
  firstSentence: string;
}

/** Where a turn's time goes, alone on the box, in ms. */
export interface TurnTime {
  stt: number;
  promptRead: number;
  firstSentence: number;
  tts: number;
  /** End of speech → first audio: the silence waited before the work starts, then the engines in turn. */
  total: number;
  /** How long each engine is held by the turn (the queueing model's service times). */
  busy: { stt: number; llm: number; tts: number };
}

export function turnTime(choice: EngineChoice, turn: TurnLoad, waitedSilenceMs: number): TurnTime {
  const llm = choice.box.llm[choice.llm];
  const stt = sttMs(choice.box.stt[choice.whisper], turn.audioSeconds);
  const promptRead = promptReadMs(llm, turn.promptTokens);
  const firstSentence = generationMs(llm, turn.tokensToFirstSentence);
  const tts = ttsMs(choice.box.tts, turn.firstSentence);
  return {
    stt,
    promptRead,
    firstSentence,
    tts,
    total: waitedSilenceMs + stt + promptRead + firstSentence + tts,
    busy: { stt, llm: promptRead + generationMs(llm, turn.replyTokens), tts },
  };
}

/** A voicemail's summary after the call: STT of the whole message, then the summary prompt read and generated. */
export function summaryTime(choice: EngineChoice, job: { audioSeconds: number; promptTokens: number; replyTokens: number }): { stt: number; llm: number; total: number } {
  const llm = choice.box.llm[choice.llm];
  const stt = sttMs(choice.box.stt[choice.whisper], job.audioSeconds);
  const model = promptReadMs(llm, job.promptTokens) + generationMs(llm, job.replyTokens);
  return { stt, llm: model, total: stt + model };
}
