// GET /api/admin/engines' agentGuard: this node's slow-box guard (pbx/admission/slow-box-guard.ts, issue 60 item 4).
import { Type } from 'typebox';
import { OneOf } from './shared.js';

export const AgentGuardSchema = Type.Object({
  /** open: new agent-mode calls get the assistant; closed: they are answered in voicemail mode with the owner's greeting. */
  state: OneOf(['open', 'closed'] as const),
  /** While closed: the median end of speech → first audio that closed it (last 20 turns). */
  p50Ms: Type.Optional(Type.Integer({ minimum: 0 })),
  /** AGENT_SLOW_P50_MS; 0: the guard is off. */
  limitMs: Type.Integer({ minimum: 0 }),
  /** When it last closed (while closed) or opened again (ISO); absent before its first episode. */
  since: Type.Optional(Type.String()),
});
