import type { ChatMessage } from '../../models/llm/language-model.js';
import { AGENT_LINES, agentGoodbye } from '../spoken/agent-lines.js';
import type { AgentReply } from './agent-reply.js';
import type { ResponderEvent } from './agent-responder.js';
import { redactCardNumbers } from './card-guard.js';

const ENGLISH_LINES = AGENT_LINES;
const englishGoodbye = agentGoodbye;

// What the agent does with a parsed reply: pure, so the phone and the console preview
// agree on what a caller hears, and the dialogue rules are unit-tested.

export type TurnOutcome =
  | { kind: 'answer'; say: string[]; next: 'listen' }
  | { kind: 'not-answered'; say: string[]; next: 'listen'; logQuestion: true }
  | { kind: 'take-message'; say: string[]; next: 'message'; urgent?: boolean }
  /** The caller wants a person (or says it is urgent) and the owner can be rung: the flow puts them through. */
  | { kind: 'transfer'; say: string[]; next: 'transfer'; urgent: boolean }
  | { kind: 'goodbye'; say: string[]; next: 'hang-up' }
  /** The caller wants a booking (or is in one): the booking walk says what comes next (booking-walk.ts). */
  | { kind: 'book'; say: string[]; next: 'listen' };

export interface TurnOptions {
  /** A transfer number is set and the trunk can call out: "human" and "urgent" put the caller through. */
  canTransfer?: boolean;
  /** The owner has bookable services and a diary: "book" starts or carries on a booking. */
  canBook?: boolean;
  /** The fixed lines in the caller's language (dialogue/language/fixed-lines.ts); default English. */
  fixed?: { lines: typeof AGENT_LINES | Readonly<Record<keyof typeof AGENT_LINES, string>>; goodbye(businessName: string | null | undefined): string };
}

export function decideTurn(reply: AgentReply, businessName: string | null | undefined, spokenAnswer: string[], opts: TurnOptions = {}): TurnOutcome {
  // The caller's language's lines under the English names, so every branch says its line in it.
  const AGENT_LINES = opts.fixed?.lines ?? ENGLISH_LINES;
  const agentGoodbye = opts.fixed?.goodbye ?? englishGoodbye;
  switch (reply.intent) {
    case 'urgent':
      if (opts.canTransfer) return { kind: 'transfer', say: [], next: 'transfer', urgent: true };
      return { kind: 'take-message', say: [AGENT_LINES.urgentMessage], next: 'message', urgent: true };
    case 'goodbye':
      return { kind: 'goodbye', say: reply.answered && spokenAnswer.length ? spokenAnswer : [agentGoodbye(businessName)], next: 'hang-up' };
    case 'human':
      if (opts.canTransfer) return { kind: 'transfer', say: [], next: 'transfer', urgent: false };
      return { kind: 'take-message', say: [AGENT_LINES.human], next: 'message' };
    case 'message':
      return { kind: 'take-message', say: [AGENT_LINES.takeMessage], next: 'message' };
    case 'book':
      if (opts.canBook) return { kind: 'book', say: [], next: 'listen' };
      // Without a desk the model was never told of "book": as if it had not answered.
      return { kind: 'not-answered', say: [AGENT_LINES.notAnswered], next: 'listen', logQuestion: true };
    default:
      if (reply.answered) return { kind: 'answer', say: spokenAnswer.length ? spokenAnswer : [redactCardNumbers(reply.answer)], next: 'listen' };
      return { kind: 'not-answered', say: [AGENT_LINES.notAnswered], next: 'listen', logQuestion: true };
  }
}

/** The reply stream ended without a reply (the model stopped before its answer was complete). */
export class NoReply extends Error {
  override name = 'NoReply';
}

/** What one caller turn came to, once the model's reply has streamed in. */
export interface AgentAnswer {
  outcome: TurnOutcome;
  /** Fixed lines still to say after the streamed sentences (an admission, a message prompt). */
  fixedLines: string[];
  /** Everything the agent says this turn, as one text (what the preview shows, what a question is logged with). */
  said: string;
  /** The reply as it goes into the conversation history the model sees next turn. */
  historyReply: ChatMessage;
  /** The model's reply as parsed (a booking turn reads its choice). */
  reply: AgentReply;
}

/**
 * Assembles a turn from the model's streamed reply: each sentence that may be spoken goes
 * to `onSentence` the moment it is ready, then the turn rules decide the rest. The phone
 * (pbx/flows/agent) and the console's preview (core/agent-preview) both answer through
 * this, so an owner trying the agent hears what a caller would.
 */
export async function answerTurn(
  replies: AsyncIterable<ResponderEvent>,
  businessName: string | null | undefined,
  onSentence: (text: string) => void = () => undefined,
  opts: TurnOptions = {},
): Promise<AgentAnswer> {
  const spoken: string[] = [];
  let outcome: TurnOutcome | undefined;
  let reply: AgentReply | undefined;
  let raw = '';
  for await (const ev of replies) {
    if (ev.type === 'sentence') {
      // A card number the caller read out is never said back (issue 59), whatever the model wrote.
      const text = redactCardNumbers(ev.text);
      spoken.push(text);
      onSentence(text);
    } else {
      raw = ev.raw;
      reply = ev.reply;
      outcome = decideTurn(ev.reply, businessName, spoken, opts);
    }
  }
  if (!outcome || !reply) throw new NoReply('the model gave no reply');
  const said = outcome.say.join(' ');
  // A goodbye the model worded itself was streamed already; every other non-answer is a fixed line.
  const fixedLines = outcome.kind !== 'answer' && !(outcome.kind === 'goodbye' && spoken.length) ? outcome.say : [];
  const intent = outcome.kind === 'answer' ? 'question' : parseIntent(raw);
  const historyReply: ChatMessage = { role: 'assistant', content: JSON.stringify({ intent, answered: outcome.kind === 'answer', answer: said }) };
  return { outcome, fixedLines, said, historyReply, reply };
}

/** A booking turn as the model sees it next turn: what the walk said, under the "book" intent (the phone and the Try-it). */
export function bookingAnswer(turn: AgentAnswer, say: string[]): AgentAnswer {
  const said = say.join(' ');
  return { ...turn, said, fixedLines: [], historyReply: { role: 'assistant', content: JSON.stringify({ intent: 'book', answered: true, answer: said }) } };
}

function parseIntent(raw: string): string {
  const m = /"intent"\s*:\s*"(\w+)"/.exec(raw);
  return m?.[1] ?? 'question';
}
