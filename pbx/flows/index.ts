import { agentFlow } from './agent/index.js';
import type { CallFlow } from './types.js';
import { voicemailFlow } from './voicemail/voicemail-flow.js';

/** The dispatch point: which flow answers a business's calls, by its AI mode. */
export function flowForMode(mode: 'voicemail' | 'agent'): CallFlow {
  switch (mode) {
    case 'agent':
      return agentFlow;
    case 'voicemail':
      return voicemailFlow;
  }
}

export type { CallFlow, FlowContext, FlowOutcome, OwnerProfile } from './types.js';
