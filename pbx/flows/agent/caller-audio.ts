import type { TurnEvent } from '../../media/turn-detector.js';
import type { ConversationCore } from './conversation-core.js';
import type { SpeculationEntry } from './conversation-state.js';
import type { Speculating } from './speculating.js';
import { TurnCancelled } from './turn-errors.js';

// The caller's frames become turn events (media/turn-detector.ts), and each event is acted on
// at once: barge-in pauses then stops the agent, a pause starts a speculation, the end of a
// turn commits it.

/** Below this, a short sound while the agent listens is not worth transcribing (a click, a breath). */
const SHORT_ANSWER_MS = 200;

/** What the caller's audio leads to beyond the core. */
export interface CallerAudioPort {
  callerTurn(audio: Int16Array, silenceMs: number, detectedAt: number, short: boolean, entry?: SpeculationEntry, endSilenceMs?: number): Promise<void>;
  startSilenceTimer(): void;
}

export class CallerAudio {
  constructor(
    private readonly core: ConversationCore,
    private readonly speculating: Speculating,
    private readonly port: CallerAudioPort,
  ) {}

  onFrame(frame: Int16Array): void {
    const { core } = this;
    if (core.end.ended || core.transfer.inProgress) return;
    const events = core.detector.feed(frame, core.deps.vad.isSpeech(frame));
    for (const e of events) this.onTurnEvent(e);
  }

  onTurnEvent(e: TurnEvent): void {
    const { core, speculating } = this;
    const { turns, bargeIn, timers } = core;
    const player = core.deps.media.player;
    switch (e.type) {
      case 'speech-start':
        timers.stopSilence();
        speculating.cancel('new stretch of speech');
        // While a reply is on its way too: the caller may have more to say, so nothing of
        // it is heard until we know whether this is "mm" or a real turn.
        if ((player.busy || turns.running) && !player.isPaused) {
          // Possible barge-in: stop sending now, decide once we know it is not a cough.
          player.pause();
          bargeIn.pausedAt = core.now();
          core.deps.onBargeIn?.({ pausedWithQueuedMs: player.queuedMs });
        }
        return;
      case 'speech-confirmed':
        turns.rules = { ...turns.rules, silencePrompts: 0 };
        if (bargeIn.pausedAt !== null || turns.running) {
          // A real interruption: drop queued speech and cancel the reply being made.
          const dropped = player.clear();
          turns.abort?.abort(new TurnCancelled('barge-in'));
          if (bargeIn.pausedAt !== null) core.deps.log.info({ droppedMs: dropped }, 'agent: caller barged in');
          bargeIn.pausedAt = null;
        }
        return;
      case 'blip':
        speculating.cancel('short sound');
        if (bargeIn.pausedAt !== null) {
          // "mm", "ok", a cough over the agent: carry on speaking as if nothing happened.
          bargeIn.pausedAt = null;
          player.resume();
        } else if (!player.busy && !turns.running && e.speechMs >= SHORT_ANSWER_MS) {
          // The agent is listening: a one-word answer ("Yes.") is a turn of its own.
          void this.port.callerTurn(e.audio, e.silenceMs, core.now(), true);
        } else if (!player.busy && !turns.running) {
          this.port.startSilenceTimer();
        }
        return;
      case 'pause':
        speculating.cancel('superseded');
        core.speculation.current = speculating.start(e.audio, core.now() - e.silenceMs);
        return;
      case 'resume':
        speculating.cancel('caller carried on');
        return;
      case 'turn': {
        const entry = core.speculation.current;
        core.speculation.current = null;
        void this.port.callerTurn(e.audio, e.silenceMs, core.now(), false, entry ?? undefined, e.endSilenceMs);
        return;
      }
    }
  }
}
