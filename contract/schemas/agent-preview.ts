// The console's "Try Your AI Agent" panel and greeting player (core/agent-preview/routes.ts).
import { Type } from 'typebox';
import { LIMITS } from '../rules.js';
import { VoicePreferenceSchema } from './shared.js';

/** POST /api/agent/preview: a question against the unsaved knowledge base. */
export const AgentPreviewBody = Type.Object(
  {
    question: Type.String({ maxLength: 1000 }),
    knowledgeBase: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.knowledgeBase, multiline: true }), Type.Null()])),
    businessName: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.businessName }), Type.Null()])),
    voice: Type.Optional(VoicePreferenceSchema),
    /** The conversation this question carries on (the `sessionId` of an earlier answer); omitted to start a new one. */
    sessionId: Type.Optional(Type.String({ pattern: '^[0-9a-f]{32}$' })),
  },
  { additionalProperties: false },
);

export const AgentPreviewResponse = Type.Object({
  /** The conversation to send the next question in (it remembers a booking under way). */
  sessionId: Type.String(),
  /** Exactly what a caller would hear. */
  answer: Type.String(),
  /** False when the knowledge base does not cover the question (a caller's would be logged). */
  answered: Type.Boolean(),
  /** The answer spoken in the chosen voice, when the voice engine is available. */
  audioUrl: Type.Optional(Type.String()),
  /** A booking walk ended this turn: "booked" is a preview only (nothing is written), "request" a booking request. */
  ended: Type.Optional(Type.Union([Type.Literal('booked'), Type.Literal('moved'), Type.Literal('cancelled'), Type.Literal('kept'), Type.Literal('request')])),
});

/** POST /api/greeting/preview: the voicemail greeting from the unsaved form. */
export const GreetingPreviewBody = Type.Object(
  {
    businessName: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.businessName }), Type.Null()])),
    callGreeting: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.callGreeting }), Type.Null()])),
    voice: Type.Optional(VoicePreferenceSchema),
  },
  { additionalProperties: false },
);

export const GreetingPreviewResponse = Type.Object({ text: Type.String(), audioUrl: Type.String() });

/** POST /api/agent/line-preview: one of the agent's fixed lines in a language and voice (issue 42). */
export const LinePreviewBody = Type.Object(
  {
    language: Type.String({ maxLength: 8 }),
    line: Type.String({ maxLength: 40 }),
    voice: Type.Optional(VoicePreferenceSchema),
    /** One of the language's voices (GET /api/agent/voices) to hear it in; without it (and without `voice`) the owner's saved choice for the language. */
    languageVoice: Type.Optional(Type.String({ maxLength: 80 })),
  },
  { additionalProperties: false },
);

export const PreviewAudioParams = Type.Object({ key: Type.String({ pattern: '^[0-9a-f]{64}$' }) });

/** One voice the box has installed for a language (models/tts VoiceOption). */
const VoiceOptionSchema = Type.Object({ id: Type.String(), label: Type.String() });

/** GET /api/agent/voices: the voices an owner may choose for each caller language other than English (issue 42). */
export const AgentVoicesResponse = Type.Object({ languages: Type.Record(Type.String(), Type.Array(VoiceOptionSchema)) });
