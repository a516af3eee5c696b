import { AGENT_LINES, agentGoodbye } from './agent-lines.js';
import type { AgentReply } from './agent-reply.js';

// What the agent does with a parsed reply: pure, so the phone and the console preview
// agree on what a caller hears, and the dialogue rules are unit-tested.

export type TurnOutcome =
  | { kind: 'answer'; say: string[]; next: 'listen' }
  | { kind: 'not-answered'; say: string[]; next: 'listen'; logQuestion: true }
  | { kind: 'take-message'; say: string[]; next: 'message' }
  | { kind: 'goodbye'; say: string[]; next: 'hang-up' };

export function decideTurn(reply: AgentReply, businessName: string | null | undefined, spokenAnswer: string[]): TurnOutcome {
  switch (reply.intent) {
    case 'goodbye':
      return { kind: 'goodbye', say: reply.answered && spokenAnswer.length ? spokenAnswer : [agentGoodbye(businessName)], next: 'hang-up' };
    case 'human':
      return { kind: 'take-message', say: [AGENT_LINES.human], next: 'message' };
    case 'message':
      return { kind: 'take-message', say: [AGENT_LINES.takeMessage], next: 'message' };
    default:
      if (reply.answered) return { kind: 'answer', say: spokenAnswer.length ? spokenAnswer : [reply.answer], next: 'listen' };
      return { kind: 'not-answered', say: [AGENT_LINES.notAnswered], next: 'listen', logQuestion: true };
  }
}
