import type { Static } from 'typebox';
import type { ApiQualityReport } from '../../../contract/api.js';
import type { QualityEnginesSchema, QualityFiguresSchema } from '../../../contract/schemas/quality.js';
import { URGENCIES, type Urgency } from '../../../dialogue/summary/summary.js';
import type { MessageOutput, RunOutputs, TurnRun } from './run.js';
import { factsIn, scoreTurn, type TurnScore } from './score/agent-score.js';
import { nameWords } from './score/names.js';
import { isNumberToken, normaliseWords } from './score/normalise.js';
import { scoreSummary, SUMMARY_FIELDS, type SummaryFieldScores } from './score/summary-score.js';
import { align } from './score/wer.js';
import type { EvalConversation, EvalMessage } from './set.js';

// From the engines' outputs to the report's figures. Every figure is computed here from what
// the engines returned, set against the set's references: nothing is taken from how the
// engines were configured, so a double that garbles numbers shows as number errors and a
// double that invents a price shows as an invented fact.

type QualityFigures = Static<typeof QualityFiguresSchema>;
export type QualityEngines = Static<typeof QualityEnginesSchema>;

interface MessageDetail {
  id: string;
  reference: string;
  transcript: string | null;
  wordErrors: number | null;
  referenceWords: number;
  summary: string | null;
  urgency: string | null;
  fields: SummaryFieldScores | null;
  error: string | null;
}

interface TurnDetail {
  conversation: string;
  turn: number;
  caller: string;
  expect: string;
  intent: string;
  said: string;
  outcome: TurnScore['outcome'] | 'failed';
  invented: string[];
  forbidden: string[];
  missing: string[];
  error: string | null;
}

/** The saved file: the report the console reads, and what each message and turn came to. */
export interface SavedReport extends ApiQualityReport {
  details: { messages: MessageDetail[]; turns: TurnDetail[] };
}

export interface ReportInput {
  messages: EvalMessage[];
  conversations: EvalConversation[];
  outputs: RunOutputs;
  engines: QualityEngines;
  audioFingerprint: string;
  audioTools: string;
  partial: boolean;
  startedAt: Date;
  finishedAt: Date;
}

export function buildReport(input: ReportInput): SavedReport {
  const { messages, conversations, outputs } = input;
  const transcription = { referenceWords: 0, errors: 0, nameWords: 0, nameMisses: 0, numbers: 0, numberMisses: 0, failed: 0 };
  const messageDetails: MessageDetail[] = [];
  const fieldTally = Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, { correct: 0, total: 0 }])) as Record<(typeof SUMMARY_FIELDS)[number], { correct: number; total: number }>;
  const confusion = Object.fromEntries(URGENCIES.map((r) => [r, Object.fromEntries(URGENCIES.map((g) => [g, 0]))])) as Record<Urgency, Record<Urgency, number>>;
  let summaryFailed = 0;

  for (const [i, m] of messages.entries()) {
    const out: MessageOutput = outputs.messages[i]!;
    const ref = normaliseWords(m.transcript);
    const detail: MessageDetail = { id: m.id, reference: m.transcript, transcript: out.transcript, wordErrors: null, referenceWords: ref.length, summary: out.summary?.text ?? null, urgency: out.summary?.urgency ?? null, fields: null, error: out.error };
    messageDetails.push(detail);
    if (out.transcript === null) {
      transcription.failed++;
      summaryFailed++;
      continue;
    }
    const a = align(ref, normaliseWords(out.transcript));
    detail.wordErrors = a.substitutions + a.deletions + a.insertions;
    transcription.referenceWords += ref.length;
    transcription.errors += detail.wordErrors;
    const names = new Set(m.facts.callerName ? nameWords(m.facts.callerName) : []);
    ref.forEach((w, k) => {
      if (names.has(w)) {
        transcription.nameWords++;
        if (!a.matched[k]) transcription.nameMisses++;
      }
      if (isNumberToken(w)) {
        transcription.numbers++;
        if (!a.matched[k]) transcription.numberMisses++;
      }
    });
    if (!out.summary) {
      summaryFailed++;
      continue;
    }
    const fields = scoreSummary(m, { text: out.summary.text, urgency: out.summary.urgency as Urgency });
    detail.fields = fields;
    for (const f of SUMMARY_FIELDS) {
      if (fields[f] === null) continue;
      fieldTally[f].total++;
      if (fields[f]) fieldTally[f].correct++;
    }
    confusion[m.facts.urgency][out.summary.urgency as Urgency]++;
  }

  const turnDetails: TurnDetail[] = [];
  const count = { grounded: 0, incomplete: 0, missed: 0, refusedCorrectly: 0, ungrounded: 0, intentCorrect: 0, answerTurns: 0, refuseTurns: 0, intentTurns: 0, failed: 0, invented: 0, turnsWithInvented: 0, turns: 0 };
  for (const c of conversations) {
    const runs = new Map(outputs.turns.filter((t) => t.conversation === c.id).map((t) => [t.turn, t]));
    const known = factsIn(`${c.businessName}\n${c.knowledgeBase}`);
    for (const [k, turn] of c.turns.entries()) {
      count.turns++;
      if (turn.expect === 'answer') count.answerTurns++;
      else if (turn.expect === 'refuse') count.refuseTurns++;
      else count.intentTurns++;
      for (const f of factsIn(turn.caller)) known.add(f);
      const run: TurnRun | undefined = runs.get(k + 1);
      const base = { conversation: c.id, turn: k + 1, caller: turn.caller, expect: turn.expect };
      if (!run || (run.error && run.replyMs === null)) {
        count.failed++;
        turnDetails.push({ ...base, intent: '', said: '', outcome: 'failed', invented: [], forbidden: [], missing: [], error: run?.error ?? 'not run: an earlier turn of the conversation failed' });
        continue;
      }
      const s = scoreTurn(turn, { intent: run.intent, spoken: run.spoken }, known);
      turnDetails.push({ ...base, intent: run.intent, said: run.said, ...s, error: run.error });
      if (s.outcome === 'grounded') count.grounded++;
      else if (s.outcome === 'incomplete') count.incomplete++;
      else if (s.outcome === 'missed') count.missed++;
      else if (s.outcome === 'refused-correctly') count.refusedCorrectly++;
      else if (s.outcome === 'ungrounded') count.ungrounded++;
      else if (s.outcome === 'intent-correct') count.intentCorrect++;
      count.invented += s.invented.length;
      if (s.invented.length) count.turnsWithInvented++;
    }
  }

  const t = transcription;
  const figures: QualityFigures = {
    transcription: {
      messages: messages.length,
      failed: t.failed,
      wordErrorRate: ratio(t.errors, t.referenceWords),
      nameErrorRate: ratio(t.nameMisses, t.nameWords),
      numberErrorRate: ratio(t.numberMisses, t.numbers),
      referenceWords: t.referenceWords,
      nameWords: t.nameWords,
      numbers: t.numbers,
    },
    summary: {
      messages: messages.length,
      failed: summaryFailed,
      fields: Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, { ...fieldTally[f], accuracy: ratio(fieldTally[f].correct, fieldTally[f].total) }])) as QualityFigures['summary']['fields'],
      urgencyConfusion: confusion,
    },
    agent: {
      conversations: conversations.length,
      turns: count.turns,
      failed: count.failed,
      answerTurns: count.answerTurns,
      grounded: count.grounded,
      incomplete: count.incomplete,
      missed: count.missed,
      refuseTurns: count.refuseTurns,
      refusedCorrectly: count.refusedCorrectly,
      intentTurns: count.intentTurns,
      intentCorrect: count.intentCorrect,
      ungrounded: count.ungrounded,
      groundedRate: ratio(count.grounded, count.answerTurns),
      refusedCorrectlyRate: ratio(count.refusedCorrectly, count.refuseTurns),
      intentAccuracy: ratio(count.intentCorrect, count.intentTurns),
      ungroundedRate: ratio(count.ungrounded, count.turns - count.failed),
      inventedFacts: count.invented,
      turnsWithInventedFacts: count.turnsWithInvented,
    },
    latency: {
      stt: latency(outputs.messages.map((m) => m.sttMs)),
      summary: latency(outputs.messages.map((m) => m.summaryMs)),
      agentFirstSentence: latency(outputs.turns.map((x) => x.firstSentenceMs)),
      agentReply: latency(outputs.turns.map((x) => x.replyMs)),
      tts: latency(outputs.turns.map((x) => x.ttsMs)),
    },
  };
  const e = input.engines;
  return {
    format: 1,
    createdAt: input.finishedAt.toISOString(),
    durationMs: Math.round(input.finishedAt.getTime() - input.startedAt.getTime()),
    models: modelsLabel(e),
    engines: e,
    set: { messages: messages.length, conversations: conversations.length, turns: count.turns, audioFingerprint: input.audioFingerprint, audioTools: input.audioTools, partial: input.partial },
    figures,
    details: { messages: messageDetails, turns: turnDetails },
  };
}

/** "whisper base.en · ollama llama3.2:3b · espeak-ng": what the console groups reports by. */
function modelsLabel(e: QualityEngines): string {
  return [`${e.stt.engine}${e.stt.model ? ` ${e.stt.model}` : ''}`, `${e.llm.engine} ${e.llm.model}`, e.tts.engine].join(' · ');
}

function ratio(n: number, d: number): number | null {
  return d === 0 ? null : round(n / d, 4);
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

export function latency(values: Array<number | null>): QualityFigures['latency']['stt'] {
  const v = values.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return { count: 0, p50Ms: null, p95Ms: null, meanMs: null, maxMs: null };
  const at = (q: number) => round(v[Math.min(v.length - 1, Math.ceil(q * v.length) - 1)]!, 1);
  return { count: v.length, p50Ms: at(0.5), p95Ms: at(0.95), meanMs: round(v.reduce((s, x) => s + x, 0) / v.length, 1), maxMs: round(v.at(-1)!, 1) };
}
