import type { ChatMessage } from '../../../models/llm/language-model.js';
import { askAgent, type ResponderEvent } from '../../../dialogue/agent/agent-responder.js';
import { answerTurn } from '../../../dialogue/agent/agent-turn.js';
import type { PersonToRing } from '../../../dialogue/agent/person-routing.js';
import { turnPolicy, type TurnAction, type TurnEvent } from '../../../dialogue/agent/turn-policy.js';
import type { ConversationCore } from './conversation-core.js';
import type { Speaker } from './speaker.js';
import type { Speculation } from './speculation.js';
import { recordTone } from './speech-audio.js';
import { TurnCancelled } from './turn-errors.js';
import { metricsFor, type TurnStages } from './turn-metrics.js';

// Carries out what the turn rules (dialogue/agent/turn-policy.ts) decide: asks the turn policy,
// applies its state, runs its actions in order, and feeds it what came of the ones that ask
// something (the model, the booking walk, the owner's phone) until nothing is left to decide.

/** The agent action the decisions belong to: a committed turn has its stages and maybe a speculation. */
export interface ActionRun {
  signal?: AbortSignal;
  stages?: TurnStages;
  spec?: Speculation;
  /** The reply's speech in progress: `say` adds to it until it is finished. */
  speaker?: Speaker;
}

export class TurnActions {
  constructor(
    private readonly core: ConversationCore,
    /** The holding phrase, when it is ready. */
    private readonly holdingAudio: () => Int16Array | undefined,
  ) {}

  async perform(event: TurnEvent, run: ActionRun = {}): Promise<void> {
    const { core } = this;
    let next: TurnEvent | undefined = event;
    while (next) {
      const step = turnPolicy(core.turns.rules, core.rulesContext(), next);
      core.turns.rules = step.state;
      next = undefined;
      for (const action of step.actions) next = (await this.act(action, run)) ?? next;
      next ??= step.next;
    }
  }

  /** One action; what came of it, when the rules must hear it. */
  private async act(a: TurnAction, run: ActionRun): Promise<TurnEvent | undefined> {
    const { core } = this;
    const { deps } = core;
    // Decisions outside an agent action (a timer's, a stall's) have no turn to be cancelled with.
    const signal = run.signal ?? new AbortController().signal;
    switch (a.do) {
      case 'say': {
        if (run.stages) run.stages.voiceAt ??= core.now();
        if (run.speaker) {
          for (const line of a.lines) run.speaker.add(line);
          return undefined;
        }
        const report = a.kind && run.stages ? metricsFor(run.stages, a.kind, deps.onTurnMetrics) : undefined;
        await core.speak(a.lines, signal, report);
        return undefined;
      }
      case 'prompt':
        await core.agentTurn('silence prompt', (s) => core.speak(a.lines, s));
        return undefined;
      case 'ask-model':
        return this.askModel(a.callerText, a.history, run, signal);
      case 'walk-booking': {
        const booking = await deps.booking!.turn(a.answer.reply.booking, a.text, signal, core.lang.current);
        return { on: 'booked', text: a.text, answer: a.answer, booking };
      }
      case 'agree-call-back':
        // The desk records the wish before it answers: the line said is the time kept.
        return { on: 'call-back-agreed', text: a.text, line: await deps.callBacks!.agree(a.text) };
      case 'abandon-booking':
        deps.booking?.abandon();
        return undefined;
      case 'log-question':
        deps.onUnanswered(a.question, a.said, core.lang.current);
        return undefined;
      case 'finish-speaking': {
        const speaker = run.speaker;
        run.speaker = undefined;
        try {
          await speaker?.finished();
        } catch (err) {
          // The caller went on before hearing a word of it: as if it was never given, and
          // their words join the next turn.
          if (speaker && !speaker.started) core.turns.rules = { ...core.turns.rules, ...a.unheard };
          throw err;
        }
        return undefined;
      }
      case 'flag-urgent':
        deps.onUrgent?.(a.reason);
        return undefined;
      case 'flag-stalled':
        deps.onStalled?.();
        return undefined;
      case 'put-through':
        return signal.aborted ? undefined : this.putThrough(a.callerWords, a.person);
      case 'attribute':
        deps.onAttribute?.(a.staffId, a.note);
        return undefined;
      case 'hold': {
        const audio = this.holdingAudio();
        if (audio) void deps.media.player.play(audio);
        return undefined;
      }
      case 'offer-voicemail':
        deps.media.player.clear();
        await core.agentTurn('voicemail offer', async (s) => {
          await core.speak(a.lines, s);
          if (!s.aborted && !core.end.ended) await deps.media.player.play(recordTone(deps.media.sampleRate));
        });
        return undefined;
      case 'close':
        await core.closeWith(a.lines);
        return undefined;
      case 'end':
        if (a.speechFailed) core.end.speechFailed = true;
        if (!signal.aborted) core.close(a.by);
        return undefined;
    }
  }

  /**
   * Streams the model's reply into speech: answer sentences are synthesised as they arrive,
   * the speculation's first one already made; the reply's fixed lines follow (the rules' `say`).
   */
  private async askModel(text: string, history: ChatMessage[], run: ActionRun, signal: AbortSignal): Promise<TurnEvent> {
    const { core } = this;
    const { deps } = core;
    const spec = run.spec;
    const speaker = core.speaker(signal, run.stages && metricsFor(run.stages, 'answer', deps.onTurnMetrics));
    run.speaker = speaker;
    const answer = await answerTurn(
      this.timedReplies(text, history, run, signal),
      core.input.businessName,
      (sentence) => {
        if (run.stages) run.stages.voiceAt ??= core.now();
        speaker.add(sentence, spec?.takeAudio(sentence));
      },
      { canTransfer: deps.putThrough !== undefined, canBook: deps.booking !== undefined, fixed: core.lang.lines },
    );
    if (signal.aborted) throw new TurnCancelled('cancelled');
    speaker.kind = answer.outcome.kind;
    return { on: 'replied', text, answer };
  }

  /** The model's reply: the speculation's, already under way, or asked now; stamps when its first text came. */
  private async *timedReplies(text: string, history: ChatMessage[], run: ActionRun, signal: AbortSignal): AsyncGenerator<ResponderEvent> {
    const { core } = this;
    const { spec, stages } = run;
    const underWay = spec?.llmStartedAt !== undefined;
    if (stages) stages.llmStart = spec?.llmStartedAt ?? core.now();
    const replies = spec && underWay ? spec.replies() : askAgent(core.deps.engines.replies, { system: core.system(), history, callerText: text }, signal);
    for await (const ev of replies) {
      if (stages) stages.firstText ??= spec?.firstTextAt ?? core.now();
      yield ev;
    }
  }

  /** Puts the caller through to the owner or `person`: nothing else speaks meanwhile; the rules hear whether they took it. */
  private async putThrough(callerWords: string, person?: PersonToRing): Promise<TurnEvent | undefined> {
    const { core } = this;
    core.transfer.inProgress = true;
    core.timers.stopSilence();
    core.timers.stopMax();
    core.cancelSpeculation('putting the caller through');
    core.deps.media.player.clear();
    let connected = false;
    try {
      connected = person ? await core.deps.putThroughTo!(person.phone, callerWords) : await core.deps.putThrough!(callerWords);
    } catch (err) {
      // The caller hung up meanwhile (the hang-up closes the conversation), or ARI failed.
      if (!core.end.ended) core.deps.log.warn({ err }, 'agent: putting the caller through failed');
    }
    if (core.end.ended) return undefined;
    if (!connected) {
      core.transfer.inProgress = false;
      core.startMaxTimer();
    }
    return { on: 'put-through', connected, ...(person && { person }) };
  }
}
