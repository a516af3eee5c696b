import type { ChatMessage, ReplyStreamer } from '../../models/llm/language-model.js';
import { agentTurnMessages } from './agent-prompt.js';
import { parseAgentReply, ReplyStreamReader, type AgentIntent, type AgentReply } from './agent-reply.js';
import { SentenceSplitter } from './agent-sentences.js';

// The agent's engine glue, shared by the phone (pbx/flows/agent) and the console's
// "try it" (core/agent-preview): the same prompt, the same model call, the same parsing.
// The streamed model itself is models/llm/ollama-stream.ts.

export type ResponderEvent =
  /** A sentence ready to be spoken (only ever part of a knowledge-base answer). */
  | { type: 'sentence'; text: string }
  | { type: 'done'; reply: AgentReply; raw: string };

/** Model sentences are spoken only for these intents; the others use fixed lines. */
const SPEAKS_MODEL_TEXT: ReadonlySet<AgentIntent> = new Set(['question', 'goodbye']);

/**
 * Streams the model's reply and yields sentences of the answer as soon as the model has
 * said (answered: true) that the knowledge base covers it. Until then sentences are held,
 * so nothing unverified is ever spoken; the final parse decides what was not streamed.
 */
export async function* respond(streamer: ReplyStreamer, messages: ChatMessage[], signal?: AbortSignal): AsyncGenerator<ResponderEvent> {
  const reader = new ReplyStreamReader();
  const splitter = new SentenceSplitter();
  let raw = '';
  let intent: AgentIntent | undefined;
  let answered: boolean | undefined;
  let held: string[] = [];
  let released = 0;
  const mayRelease = () => answered === true && SPEAKS_MODEL_TEXT.has(intent ?? 'question');

  for await (const piece of streamer.stream(messages, { signal })) {
    raw += piece;
    for (const ev of reader.push(piece)) {
      if (ev.type === 'intent') intent = ev.intent;
      else if (ev.type === 'answered') answered = ev.answered;
      else held.push(...splitter.push(ev.text));
    }
    if (mayRelease() && held.length) {
      for (const text of held) yield { type: 'sentence', text };
      released += held.length;
      held = [];
    }
  }
  const reply = parseAgentReply(raw);
  if (reply.answered && SPEAKS_MODEL_TEXT.has(reply.intent)) {
    held.push(...splitter.flush());
    // A model that put "answer" before "answered" is read whole at the end instead.
    if (released === 0 && held.length === 0) held.push(reply.answer);
    for (const text of held) yield { type: 'sentence', text };
  }
  yield { type: 'done', reply, raw };
}

export interface TurnInput {
  system: string;
  /** Earlier turns, oldest first: caller text and the agent's JSON replies. */
  history: ChatMessage[];
  callerText: string;
}

/** Asks the model to answer the caller's words after the earlier turns: the reply's events (see respond). */
export function askAgent(streamer: ReplyStreamer, turn: TurnInput, signal?: AbortSignal): AsyncGenerator<ResponderEvent> {
  // A long knowledge base is cut to the entries this turn needs here, where the caller's words are known.
  return respond(streamer, agentTurnMessages(turn.system, turn.history, turn.callerText), signal);
}
