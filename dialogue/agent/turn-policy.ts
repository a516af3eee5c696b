import type { ChatMessage } from '../../models/llm/language-model.js';
import type { FixedLines } from '../language/fixed-lines.js';
import { GAS_SAFETY_LINES, mentionsGasLeak } from '../spoken/safety-line.js';
import { bookingAnswer, type AgentAnswer } from './agent-turn.js';
import { askForPerson } from './ask-for-person.js';
import type { BookingTurn } from './booking-walk.js';
import { asksForCallBack } from './call-back-asked.js';
import { afterRinging, decideRoute, routeRequest, ruleFor, type CallRouting, type PersonToRing, type RouteDecision } from './person-routing.js';
import { routingNote } from './routing-note.js';

// The product rules of a committed caller turn, as data: given what the conversation holds and
// what just happened, the next state and the actions to take, in order. Pure (no audio, no
// clock, no engine): pbx/flows/agent runs the actions, and feeds back what came of the ones
// that ask something (the model's reply, the booking walk's, the owner's phone).

/** What the caller is doing: asking questions, leaving a message, or leaving a voicemail (the engines failed). */
export type Mode = 'normal' | 'message' | 'voicemail';

/** What the rules need to remember between turns. */
export interface TurnPolicyState {
  mode: Mode;
  /** What the model sees of the conversation next turn. */
  history: readonly ChatMessage[];
  /** The caller's words not yet answered (a turn cancelled before the reply): they join the next turn. */
  carryText: string;
  /** The gas safety line was said (once per call). */
  safetyGiven: boolean;
  /** Silence prompts said since the caller last spoke. */
  silencePrompts: number;
  /** The engines failed once already: the caller was offered voicemail. */
  engineFailed: boolean;
}

/** What is fixed for the call, and the lines in the language the agent answers in now. */
export interface TurnContext {
  businessName: string | null;
  /** The trade handles gas (SPEC's industry): a gas leak hears the safety line. */
  handlesGas: boolean;
  /** The owner's phone can be rung: the flow can put the caller through. */
  canTransfer: boolean;
  /** A booking walk is open for this call (its "book" replies carry the walk on). */
  canBook: boolean;
  lines: FixedLines;
  /** The business's team and routing rules (issue 58); absent when they could not be read: the owner alone, as before. */
  routing?: CallRouting;
  /** The agent rings callers back (issue 56: the owner's setting is not 'owner'): a caller's wish is agreed by code. */
  canRingBack?: boolean;
}

/** What happened, in the order a turn meets it. */
export type TurnEvent =
  /** A committed caller turn, transcribed: `words` empty when nothing was made out. `language` says why the agent's language changed on it, if it did. */
  | { on: 'words'; words: string; short: boolean; language?: 'asked' | 'detected' }
  /** The turn's words after any safety line: the mode decides who answers them. `gasLeak`: the safety lines were just said for them. */
  | { on: 'respond'; text: string; languageAsked: boolean; gasLeak?: true }
  /** The model's reply to `text` has streamed in. */
  | { on: 'replied'; text: string; answer: AgentAnswer }
  /** The booking walk answered a "book" reply. */
  | { on: 'booked'; text: string; answer: AgentAnswer; booking: BookingTurn }
  /** Putting the caller through ended: `connected` when the owner (or `person`) took the call (and it is over). */
  | { on: 'put-through'; connected: boolean; person?: PersonToRing }
  /** The caller has been silent for the silence bound while the agent listened. */
  | { on: 'silence' }
  /** The call reached its longest length. */
  | { on: 'max-length' }
  /** A stalled turn's step (stall-rule.ts in pbx/flows/agent: when each fires). */
  | { on: 'stall'; step: 'hold' | 'offer-voicemail' | 'close' }
  /** An engine failed during an agent action (`closing`: the closing lines themselves); `speech`: the TTS engine. */
  | { on: 'failed'; speech: boolean; closing: boolean }
  /** The call-back desk agreed (and recorded) the caller's call-back: `line` is what the agent says, verbatim. */
  | { on: 'call-back-agreed'; text: string; line: string };

/** What to do. `say` lines join the speech of the action in progress (a reply's, after its streamed sentences). */
export type TurnAction =
  | { do: 'say'; lines: string[]; kind?: 'message-taken' | 'language' | 'call-back' }
  /** Said as an agent action of its own, which then listens again. */
  | { do: 'prompt'; lines: string[] }
  /** Ask the model: the system prompt is the executor's (it follows the booking step and the language). */
  | { do: 'ask-model'; history: ChatMessage[]; callerText: string }
  /** Start or carry on the booking walk with the reply's choice. */
  | { do: 'walk-booking'; text: string; answer: AgentAnswer }
  /** The caller went on to something else: drop the booking in progress. */
  | { do: 'abandon-booking' }
  /** A question the knowledge base did not cover, for the owner. */
  | { do: 'log-question'; question: string; said: string }
  /** Wait until the turn's speech is over; if the caller heard none of it, the turn never happened: go back to `unheard`. */
  | { do: 'finish-speaking'; unheard: Pick<TurnPolicyState, 'history' | 'carryText'> }
  | { do: 'flag-urgent'; reason: string }
  | { do: 'flag-stalled' }
  /** Ring the owner's phone, or `person`'s (a team member the caller asked for, or a rule named). */
  | { do: 'put-through'; callerWords: string; person?: PersonToRing }
  /** Name the call's person and what routing did (calls.staff_id, calls.routing_note). */
  | { do: 'attribute'; staffId: number; note: string }
  /** Say the holding phrase over a slow answer (its audio is the executor's, made ahead). */
  | { do: 'hold' }
  /** Give up on answering: say these lines, then the record tone; what the caller says next is a voicemail. */
  | { do: 'offer-voicemail'; lines: string[] }
  /** Say these lines, then end the call (unless the caller interrupts with a new question). */
  | { do: 'close'; lines: string[] }
  /** End the call now. */
  | { do: 'end'; by: 'agent' | 'transfer'; speechFailed?: boolean }
  /** Hand the caller's words to the call-back desk (issue 56): it agrees a time and records the wish. */
  | { do: 'agree-call-back'; text: string };

export interface TurnStep {
  state: TurnPolicyState;
  actions: TurnAction[];
  /** Once the actions have run (and the turn was not cancelled), decide this next. */
  next?: TurnEvent;
}

export function initialTurnState(): TurnPolicyState {
  return { mode: 'normal', history: [], carryText: '', safetyGiven: false, silencePrompts: 0, engineFailed: false };
}

/** The model is asked only for a caller asking questions (a speculation follows the same rule). */
export function asksModel(mode: Mode): boolean {
  return mode === 'normal';
}

const GAS_REASON = 'The caller mentioned a gas smell or leak.';
const URGENT_REASON = 'The caller said it was urgent.';

export function turnPolicy(state: TurnPolicyState, ctx: TurnContext, event: TurnEvent): TurnStep {
  switch (event.on) {
    case 'words':
      return onWords(state, ctx, event);
    case 'respond':
      return respond(state, ctx, event);
    case 'replied': {
      const routed = ctx.routing && byRule(state, ctx, ctx.routing, event.text, event.answer);
      if (routed) return routed;
      const kind = event.answer.outcome.kind;
      // The diary is asked inside the turn: a slow one still gets the holding phrase.
      if (kind === 'book') return { state, actions: [{ do: 'walk-booking', text: event.text, answer: event.answer }] };
      return settle(state, event.text, event.answer, [], kind === 'take-message' || kind === 'transfer');
    }
    case 'booked':
      return settle(
        { ...state, mode: event.booking.takeMessage === true ? 'message' : state.mode },
        event.text,
        bookingAnswer(event.answer, event.booking.say),
        event.booking.say,
        false,
      );
    case 'put-through': {
      const noted: TurnAction[] = event.person ? [{ do: 'attribute', staffId: event.person.staffId, note: afterRinging(event.person, event.connected) }] : [];
      if (event.connected) return { state, actions: [...noted, { do: 'end', by: 'transfer' }] };
      // They did not take it: the caller's next words are a message for them.
      return { state: { ...state, mode: 'message' }, actions: [...noted, { do: 'say', lines: [ctx.lines.lines.afterTransfer] }] };
    }
    case 'silence':
      return onSilence({ ...state, silencePrompts: state.silencePrompts + 1 }, ctx);
    case 'max-length':
      return { state, actions: [{ do: 'close', lines: [ctx.lines.lines.silenceGoodbye] }] };
    case 'stall':
      if (event.step === 'hold') return { state, actions: [{ do: 'hold' }] };
      // A caller leaving a voicemail is owed no answer: the recording holds the message.
      if (event.step === 'close') return { state, actions: [{ do: 'close', lines: [ctx.lines.lines.voicemailThanks] }] };
      return withFirst({ do: 'flag-stalled' }, offerVoicemail(state, ctx));
    case 'call-back-agreed': {
      // Said as the desk wrote it; the model sees it next turn as its own answer.
      const reply: ChatMessage = { role: 'assistant', content: JSON.stringify({ intent: 'question', answered: true, answer: event.line }) };
      return {
        state: { ...state, carryText: '', history: [...state.history, { role: 'user', content: event.text }, reply] },
        actions: [{ do: 'abandon-booking' }, { do: 'say', lines: [event.line], kind: 'call-back' }],
      };
    }
    case 'failed':
      // Nothing can be said without speech: the flow hands the call to voicemail with Asterisk's prompts.
      if (event.speech) return { state, actions: [{ do: 'end', by: 'agent', speechFailed: true }] };
      if (!state.engineFailed) return offerVoicemail(state, ctx);
      if (state.mode === 'voicemail' && !event.closing) return { state, actions: [{ do: 'close', lines: [ctx.lines.lines.voicemailThanks] }] };
      // Nothing more can be done: end the call politely rather than loop.
      return { state, actions: [{ do: 'end', by: 'agent' }] };
  }
}

/** The turn's words: kept until answered; a gas leak at a gas trade hears the safety advice first, once per call. */
function onWords(state: TurnPolicyState, ctx: TurnContext, event: Extract<TurnEvent, { on: 'words' }>): TurnStep {
  const text = [state.carryText, event.words].filter(Boolean).join(' ');
  const kept = { ...state, carryText: text };
  if (!event.words) {
    // A short noise is ignored; a real turn we could not make out is asked again.
    const ask = !event.short && state.mode === 'normal';
    return { state: kept, actions: ask ? [{ do: 'say', lines: [ctx.lines.lines.didNotCatch] }] : [] };
  }
  const heard = { ...kept, silencePrompts: 0 };
  const next = { on: 'respond', text, languageAsked: event.language === 'asked' } as const;
  if (state.safetyGiven || !ctx.handlesGas || !mentionsGasLeak(event.words)) return { state: heard, actions: [], next };
  return {
    state: { ...heard, safetyGiven: true },
    actions: [
      { do: 'flag-urgent', reason: GAS_REASON },
      { do: 'say', lines: [...GAS_SAFETY_LINES] },
    ],
    next: { ...next, gasLeak: true },
  };
}

/** The mode decides: the model answers questions; a message or a voicemail is taken, not answered. */
function respond(state: TurnPolicyState, ctx: TurnContext, event: Extract<TurnEvent, { on: 'respond' }>): TurnStep {
  const { text, languageAsked } = event;
  const lines = ctx.lines.lines;
  if (state.mode === 'voicemail') return { state: { ...state, carryText: '' }, actions: [{ do: 'close', lines: [lines.voicemailThanks] }] };
  if (state.mode === 'message') {
    return { state: { ...state, carryText: '', mode: 'normal' }, actions: [{ do: 'say', lines: [lines.messageTaken], kind: 'message-taken' }] };
  }
  if (languageAsked) {
    // They hear that they have it, in it: a fixed line, the model is not asked.
    const line = ctx.lines.switched;
    const reply: ChatMessage = { role: 'assistant', content: JSON.stringify({ intent: 'question', answered: true, answer: line }) };
    return {
      state: { ...state, carryText: '', history: [...state.history, { role: 'user', content: text }, reply] },
      actions: [{ do: 'say', lines: [line], kind: 'language' }],
    };
  }
  // "Can someone ring me back after four?": the time is code's, never the model's (issue 56).
  if (ctx.canRingBack && asksForCallBack(text)) return { state, actions: [{ do: 'agree-call-back', text }] };
  const request = ctx.routing ? askForPerson(text, ctx.routing.team.members) : null;
  const routed = request && routeRequest(request, ctx.routing!);
  if (routed) {
    // Asked for by name or role: the team decides, the model is not asked.
    const reply: ChatMessage = { role: 'assistant', content: JSON.stringify({ intent: 'human', answered: false, answer: '' }) };
    return routedStep(state, ctx, text, reply, routed, { urgent: false, before: [] });
  }
  const emergency = event.gasLeak && ctx.routing ? gasEmergency(state, ctx, ctx.routing, text) : null;
  if (emergency) return emergency;
  return { state, actions: [{ do: 'ask-model', history: [...state.history], callerText: text }] };
}

/**
 * A gas leak is an emergency, whatever the model would make of it: the owner's first fitting
 * emergency rule decides, as for a caller who says it is one. The safety lines are already said
 * and the call flagged (onWords), so neither is repeated. Null without a fitting rule: the model
 * answers as before.
 */
function gasEmergency(state: TurnPolicyState, ctx: TurnContext, routing: CallRouting, text: string): TurnStep | null {
  const rule = ruleFor(routing, { urgent: true, booking: false });
  if (!rule) return null;
  const reply: ChatMessage = { role: 'assistant', content: JSON.stringify({ intent: 'urgent', answered: false, answer: '' }) };
  const decision = decideRoute(rule.reason, rule.target, routing.canRing);
  return routedStep(state, ctx, text, reply, decision, { urgent: true, flagged: true, before: [{ do: 'abandon-booking' }] });
}

/**
 * The owner's routing rules on a reply that reaches for a person: the caller wants someone
 * ("human"), says it is urgent, wants to book, or leaves a message. Null when no rule fits
 * (or the reply is none of these): the usual handling, the owner's phone, applies.
 */
function byRule(state: TurnPolicyState, ctx: TurnContext, routing: CallRouting, text: string, answer: AgentAnswer): TurnStep | null {
  const intent = answer.reply.intent;
  const booking = answer.outcome.kind === 'book';
  if (!booking && intent !== 'urgent' && intent !== 'human' && intent !== 'message') return null;
  const urgent = intent === 'urgent';
  const rule = ruleFor(routing, { urgent, booking });
  if (!rule) return null;
  const { member } = rule.target;
  if (intent === 'message') {
    // Leaving a message anyway: it is for the rule's person, and nobody is rung.
    return withFirst({ do: 'attribute', staffId: member.id, note: routingNote(rule.reason, member.name, { is: 'message' }) }, settle(state, text, answer, [], false));
  }
  const decision = decideRoute(rule.reason, rule.target, routing.canRing);
  if (booking && 'message' in decision) {
    // Nobody to ring for it: the agent's booking walk takes the booking, for them.
    const unreached = rule.target.reachable ? 'no-line' : rule.target.why;
    return { state, actions: [{ do: 'attribute', staffId: member.id, note: routingNote(rule.reason, member.name, { is: 'booking', unreached }) }, { do: 'walk-booking', text, answer }] };
  }
  return routedStep(state, ctx, text, answer.historyReply, decision, { urgent, before: [{ do: 'abandon-booking' }] });
}

/** Ring the person, or say they are not available and take a message for them. Streamed sentences are finished first. */
function routedStep(
  prior: TurnPolicyState, ctx: TurnContext, text: string, reply: ChatMessage, d: RouteDecision,
  /** `flagged`: the call is already flagged urgent, with its own reason (a gas leak). */
  o: { urgent: boolean; flagged?: boolean; before: TurnAction[] },
): TurnStep {
  const state: TurnPolicyState = { ...prior, carryText: '', history: [...prior.history, { role: 'user', content: text }, reply] };
  const urgentFlag: TurnAction[] = o.urgent && !o.flagged ? [{ do: 'flag-urgent', reason: URGENT_REASON }] : [];
  const finish: TurnAction = { do: 'finish-speaking', unheard: { history: prior.history, carryText: text } };
  if ('ring' in d) {
    return { state, actions: [...o.before, finish, ...urgentFlag, { do: 'attribute', staffId: d.ring.staffId, note: d.note }, { do: 'put-through', callerWords: text, person: d.ring }] };
  }
  const line = o.urgent ? ctx.lines.lines.urgentMessage : ctx.lines.personNotAvailable(d.message.name);
  return {
    state: { ...state, mode: 'message' },
    actions: [...o.before, { do: 'say', lines: [line] }, finish, ...urgentFlag, { do: 'attribute', staffId: d.message.staffId, note: d.message.note }],
  };
}

/**
 * A reply the caller hears: the fixed lines after the streamed ones, the history the model
 * sees next turn, a question logged for the owner, then what the reply leads to once said.
 */
function settle(state: TurnPolicyState, text: string, answer: AgentAnswer, bookingLines: string[], leavesBooking: boolean): TurnStep {
  const outcome = answer.outcome;
  const actions: TurnAction[] = [];
  if (leavesBooking) actions.push({ do: 'abandon-booking' });
  const lines = [...bookingLines, ...answer.fixedLines];
  if (lines.length) actions.push({ do: 'say', lines });
  if (outcome.kind === 'not-answered') actions.push({ do: 'log-question', question: text, said: answer.said });
  actions.push({ do: 'finish-speaking', unheard: { history: state.history, carryText: text } });
  if ((outcome.kind === 'transfer' || outcome.kind === 'take-message') && outcome.urgent) actions.push({ do: 'flag-urgent', reason: URGENT_REASON });
  if (outcome.kind === 'transfer') actions.push({ do: 'put-through', callerWords: text });
  if (outcome.kind === 'goodbye') actions.push({ do: 'end', by: 'agent' });
  const mode = outcome.kind === 'take-message' ? 'message' : state.mode;
  return { state: { ...state, carryText: '', mode, history: [...state.history, { role: 'user', content: text }, answer.historyReply] }, actions };
}

function onSilence(state: TurnPolicyState, ctx: TurnContext): TurnStep {
  const lines = ctx.lines;
  if (state.mode === 'voicemail') return { state, actions: [{ do: 'close', lines: [lines.goodbye(ctx.businessName)] }] };
  if (state.silencePrompts >= 2) return { state, actions: [{ do: 'close', lines: [lines.lines.silenceGoodbye] }] };
  return { state, actions: [{ do: 'prompt', lines: [lines.lines.silencePrompt] }] };
}

/** The engines cannot answer: the caller is offered voicemail, once; what they say next is their message. */
function offerVoicemail(state: TurnPolicyState, ctx: TurnContext): TurnStep {
  return {
    state: { ...state, engineFailed: true, mode: 'voicemail' },
    actions: [{ do: 'abandon-booking' }, { do: 'offer-voicemail', lines: [ctx.lines.lines.engineFailure] }],
  };
}

function withFirst(action: TurnAction, step: TurnStep): TurnStep {
  return { ...step, actions: [action, ...step.actions] };
}
