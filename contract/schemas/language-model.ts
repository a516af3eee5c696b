// GET /api/admin/engines: the language model's state on the box (core/admin/language-model.ts, issue 60).
import { Type } from 'typebox';
import { OneOf } from './shared.js';
import { AgentGuardSchema } from './agent-guard.js';

const MODEL_STATES = ['ready', 'checking', 'downloading', 'failed'] as const;

export const ApiEnginesSchema = Type.Object({
  languageModel: Type.Object({
    /** ready: agent mode available; checking: asking Ollama at start; downloading: being pulled; failed: the last check or pull failed, tried again at nextRetryAt. */
    state: OneOf(MODEL_STATES),
    /** OLLAMA_MODEL. */
    model: Type.String(),
    /** While downloading: 0–100. */
    percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    /** When failed: why, in Ollama's words or the core's. */
    error: Type.Optional(Type.String()),
    /** When failed: the next attempt (ISO). */
    nextRetryAt: Type.Optional(Type.String()),
  }),
  /** This node's slow-box guard (issue 60 item 4). */
  agentGuard: AgentGuardSchema,
});
