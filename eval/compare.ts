import type { ApiQualityReport } from '../contract/api.js';

// A run against a saved one: each headline figure before and after, and whether that is
// better or worse. Error rates and latencies are better lower, accuracies better higher.
// Latency moves with the box's load, so a change within 10% (or 5 ms) of it is called the same.

type Direction = 'lower' | 'higher';
type Verdict = 'better' | 'worse' | 'same' | 'n/a';

interface FigureDef {
  name: string;
  better: Direction;
  pick: (r: ApiQualityReport) => number | null;
  /** Relative change below which it is "same" (latency only). */
  tolerance?: number;
  kind: 'rate' | 'count' | 'ms';
}

const f = (r: ApiQualityReport) => r.figures;
const LATENCY_TOLERANCE = 0.1;
/** Timer noise: a few milliseconds either way are no change in an engine. */
const LATENCY_FLOOR_MS = 5;

const FIGURES: FigureDef[] = [
  { name: 'word error rate', better: 'lower', kind: 'rate', pick: (r) => f(r).transcription.wordErrorRate },
  { name: 'name error rate', better: 'lower', kind: 'rate', pick: (r) => f(r).transcription.nameErrorRate },
  { name: 'number error rate', better: 'lower', kind: 'rate', pick: (r) => f(r).transcription.numberErrorRate },
  { name: 'summary: caller name', better: 'higher', kind: 'rate', pick: (r) => f(r).summary.fields.callerName.accuracy },
  { name: 'summary: call-back number', better: 'higher', kind: 'rate', pick: (r) => f(r).summary.fields.callbackNumber.accuracy },
  { name: 'summary: what they want', better: 'higher', kind: 'rate', pick: (r) => f(r).summary.fields.wants.accuracy },
  { name: 'summary: urgency', better: 'higher', kind: 'rate', pick: (r) => f(r).summary.fields.urgency.accuracy },
  { name: 'summary: booking', better: 'higher', kind: 'rate', pick: (r) => f(r).summary.fields.booking.accuracy },
  { name: 'summaries failed', better: 'lower', kind: 'count', pick: (r) => f(r).summary.failed },
  { name: 'agent: grounded answers', better: 'higher', kind: 'rate', pick: (r) => f(r).agent.groundedRate },
  { name: 'agent: refused correctly', better: 'higher', kind: 'rate', pick: (r) => f(r).agent.refusedCorrectlyRate },
  { name: 'agent: intent right', better: 'higher', kind: 'rate', pick: (r) => f(r).agent.intentAccuracy },
  { name: 'agent: ungrounded turns', better: 'lower', kind: 'rate', pick: (r) => f(r).agent.ungroundedRate },
  { name: 'agent: invented facts', better: 'lower', kind: 'count', pick: (r) => f(r).agent.inventedFacts },
  { name: 'latency: speech-to-text p50', better: 'lower', kind: 'ms', tolerance: LATENCY_TOLERANCE, pick: (r) => f(r).latency.stt.p50Ms },
  { name: 'latency: summary p50', better: 'lower', kind: 'ms', tolerance: LATENCY_TOLERANCE, pick: (r) => f(r).latency.summary.p50Ms },
  { name: 'latency: agent first sentence p50', better: 'lower', kind: 'ms', tolerance: LATENCY_TOLERANCE, pick: (r) => f(r).latency.agentFirstSentence.p50Ms },
  { name: 'latency: agent first sentence p95', better: 'lower', kind: 'ms', tolerance: LATENCY_TOLERANCE, pick: (r) => f(r).latency.agentFirstSentence.p95Ms },
  { name: 'latency: text-to-speech p50', better: 'lower', kind: 'ms', tolerance: LATENCY_TOLERANCE, pick: (r) => f(r).latency.tts.p50Ms },
];

export interface ComparedFigure {
  name: string;
  kind: FigureDef['kind'];
  before: number | null;
  after: number | null;
  verdict: Verdict;
}

export interface Comparison {
  figures: ComparedFigure[];
  /** Reasons the two runs are not like for like (other recordings, part of the set). */
  caveats: string[];
}

export function compareReports(before: ApiQualityReport, after: ApiQualityReport): Comparison {
  const figures = FIGURES.map((def) => {
    const b = def.pick(before);
    const a = def.pick(after);
    return { name: def.name, kind: def.kind, before: b, after: a, verdict: verdict(def, b, a) };
  });
  const caveats: string[] = [];
  if (before.set.audioFingerprint !== after.set.audioFingerprint) {
    caveats.push(`the recordings differ (${before.set.audioTools} then ${after.set.audioTools}, or the set changed): transcription figures are not like for like`);
  }
  if (before.set.partial || after.set.partial || before.set.messages !== after.set.messages || before.set.turns !== after.set.turns) {
    caveats.push('the runs covered different parts of the set: compare whole runs');
  }
  return { figures, caveats };
}

function verdict(def: FigureDef, before: number | null, after: number | null): Verdict {
  if (before === null || after === null) return 'n/a';
  const change = after - before;
  const scale = Math.max(Math.abs(before), Math.abs(after));
  if (change === 0 || (def.kind === 'ms' && Math.abs(change) <= Math.max(LATENCY_FLOOR_MS, (def.tolerance ?? 0) * scale))) return 'same';
  return (change < 0) === (def.better === 'lower') ? 'better' : 'worse';
}
