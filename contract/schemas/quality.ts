// The quality evaluation's report (npm run eval, eval/): written to $DATA_DIR/eval/reports by
// the evaluation and read back by GET /api/admin/quality (core/quality/routes.ts) for the
// admin console. docs/quality.md says what each figure means.
import { Type } from 'typebox';
import { Nullable, OneOf } from './shared.js';

/** A share from 0 to 1; null when the run had nothing to measure it on. */
const Rate = Nullable(Type.Number());

const FieldScoreSchema = Type.Object({ correct: Type.Integer(), total: Type.Integer(), accuracy: Rate });

const UrgencyRowSchema = Type.Object({ urgent: Type.Integer(), normal: Type.Integer(), low: Type.Integer() });

/** Milliseconds per request of one stage; null figures when the stage never completed. */
const LatencySchema = Type.Object({
  count: Type.Integer(),
  p50Ms: Nullable(Type.Number()),
  p95Ms: Nullable(Type.Number()),
  meanMs: Nullable(Type.Number()),
  maxMs: Nullable(Type.Number()),
});

export const QualityEnginesSchema = Type.Object({
  stt: Type.Object({ engine: Type.String(), model: Nullable(Type.String()), endpoints: Type.Integer() }),
  llm: Type.Object({ engine: Type.String(), model: Type.String(), endpoints: Type.Integer() }),
  tts: Type.Object({ engine: Type.String() }),
});

export const QualityFiguresSchema = Type.Object({
  transcription: Type.Object({
    messages: Type.Integer(),
    /** Recordings the engine failed on (not scored). */
    failed: Type.Integer(),
    wordErrorRate: Rate,
    /** Share of the callers' names' words not transcribed exactly. */
    nameErrorRate: Rate,
    /** Share of the numbers (phone numbers, prices, times) not transcribed digit for digit. */
    numberErrorRate: Rate,
    referenceWords: Type.Integer(),
    nameWords: Type.Integer(),
    numbers: Type.Integer(),
  }),
  summary: Type.Object({
    messages: Type.Integer(),
    failed: Type.Integer(),
    fields: Type.Object({
      callerName: FieldScoreSchema,
      callbackNumber: FieldScoreSchema,
      wants: FieldScoreSchema,
      urgency: FieldScoreSchema,
      booking: FieldScoreSchema,
    }),
    /** Rows: the urgency the message has; columns: the urgency the summary gave. */
    urgencyConfusion: Type.Object({ urgent: UrgencyRowSchema, normal: UrgencyRowSchema, low: UrgencyRowSchema }),
  }),
  agent: Type.Object({
    conversations: Type.Integer(),
    turns: Type.Integer(),
    failed: Type.Integer(),
    answerTurns: Type.Integer(),
    grounded: Type.Integer(),
    incomplete: Type.Integer(),
    missed: Type.Integer(),
    refuseTurns: Type.Integer(),
    refusedCorrectly: Type.Integer(),
    intentTurns: Type.Integer(),
    intentCorrect: Type.Integer(),
    ungrounded: Type.Integer(),
    groundedRate: Rate,
    refusedCorrectlyRate: Rate,
    intentAccuracy: Rate,
    ungroundedRate: Rate,
    /** Numbers and times the agent said that neither the knowledge base nor the caller did. */
    inventedFacts: Type.Integer(),
    turnsWithInventedFacts: Type.Integer(),
  }),
  latency: Type.Object({
    stt: LatencySchema,
    summary: LatencySchema,
    agentFirstSentence: LatencySchema,
    agentReply: LatencySchema,
    tts: LatencySchema,
    /**
     * The box's self-test only (core/self-test): from the end of a caller's turn to its first
     * audio: the turn's recording through speech-to-text, the model's first sentence, and that
     * sentence through text-to-speech. Absent from `npm run eval`'s reports.
     */
    agentFirstAudio: Type.Optional(LatencySchema),
  }),
});

/** One evaluation run: what it ran on and its figures (the saved file also holds each message's and turn's details). */
export const QualityReportSchema = Type.Object({
  format: Type.Literal(1),
  createdAt: Type.String(),
  durationMs: Type.Integer(),
  /** "whisper base.en · ollama llama3.2:3b · piper": the engines' models, by which the console groups reports. */
  models: Type.String(),
  engines: QualityEnginesSchema,
  set: Type.Object({
    messages: Type.Integer(),
    conversations: Type.Integer(),
    turns: Type.Integer(),
    /** The recordings' fingerprint: reports compare like for like only when it is the same. */
    audioFingerprint: Type.String(),
    /** The programs that made the recordings, with their versions. */
    audioTools: Type.String(),
    /** Only part of the set ran (--limit): the figures are not comparable with a whole run. */
    partial: Type.Boolean(),
  }),
  figures: QualityFiguresSchema,
  /** Present when the box ran it itself (core/self-test), on its own engines: what they were (the fingerprint). */
  selfTest: Type.Optional(Type.Object({ fingerprint: Type.String(), engines: Type.String() })),
});

/** Agent's first audio p50 above which the self-test advises a smaller model or voicemail mode: callers notice. */
export const SELF_TEST_SLOW_FIRST_AUDIO_MS = 1500;

/** The box's self-test as the admin dashboard shows it beside the AI Quality card. */
export const SelfTestStatusSchema = Type.Object({
  enabled: Type.Boolean(),
  /** off: SELF_TEST=off; waiting: the engines do not answer yet; running; done: the newest report is for these engines; failed: the last run failed (`error`). */
  state: OneOf(['off', 'waiting', 'running', 'done', 'failed'] as const),
  /** The newest self-test report, on any engines. */
  report: Nullable(QualityReportSchema),
  error: Nullable(Type.Object({ at: Type.String(), message: Type.String() })),
  /** Plain advice from the report; `slow` when the agent's first audio p50 is over 1.5 s. */
  advice: Nullable(Type.Object({ slow: Type.Boolean(), text: Type.String() })),
  /** Whether new owners are kept in voicemail mode, why, and the operator's acceptance. */
  agentMode: Type.Object({
    newOwnersKeptInVoicemail: Type.Boolean(),
    reason: Nullable(Type.String()),
    accepted: Nullable(Type.Object({ at: Type.String(), by: Type.String() })),
  }),
});

/** GET /api/admin/quality: the latest evaluation report of each set of models, newest first, and the box's self-test. */
export const ApiQualityReportsSchema = Type.Object({ reports: Type.Array(QualityReportSchema), selfTest: Type.Optional(SelfTestStatusSchema) });
