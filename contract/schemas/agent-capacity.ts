// GET /api/admin/agent-capacity: the admin dashboard's view of agent mode under load (core/admin/agent-capacity.ts).
import { Type } from 'typebox';

const ApiEngineSlotsSchema = Type.Object({
  /** ollama, whisper or tts. */
  engine: Type.String(),
  /** Requests its endpoints serve at once (OLLAMA_SLOTS, WHISPER_SLOTS, TTS_SLOTS), healthy or not. */
  slots: Type.Integer(),
  slotsInUse: Type.Integer(),
  endpoints: Type.Integer(),
  healthyEndpoints: Type.Integer(),
});

export const ApiAgentCapacitySchema = Type.Object({
  /** Agent conversations in progress, each holding its share of the engines. */
  conversations: Type.Integer(),
  /** Conversations the healthy engines serve at once; the next agent caller hears the busy line. */
  conversationCapacity: Type.Integer(),
  engines: Type.Array(ApiEngineSlotsSchema),
  /** Agent-mode calls of the last 24 hours turned to voicemail for capacity: refused at answer (busy), or offered voicemail when the engines stalled mid-call. */
  voicemailForCapacity: Type.Object({ busy: Type.Integer(), stalled: Type.Integer(), total: Type.Integer() }),
});
