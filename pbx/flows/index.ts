import type { CallFlow } from './types.js';
import { voicemailFlow } from './voicemail/voicemail-flow.js';
import type { AiMode } from '../../contract/api.js';

/**
 * The dispatch point: which flow answers a business's calls, by its AI mode. Agent mode goes to
 * the agent flow installed for this PBX (installAgentFlow, handed to startPbx as `agentFlow`),
 * or, when none was installed, to voicemail: what agent-mode callers got before the agent existed.
 */
export function flowForMode(mode: AiMode, installedAgent: CallFlow | undefined): CallFlow {
  switch (mode) {
    case 'agent':
      return installedAgent ?? voicemailWithoutAgent;
    case 'voicemail':
      return voicemailFlow;
  }
}

const voicemailWithoutAgent: CallFlow = (ctx) => {
  ctx.log.warn({ callId: ctx.callId }, 'agent flow not installed; answering with voicemail');
  return voicemailFlow(ctx);
};

export type { CallFlow } from './types.js';
