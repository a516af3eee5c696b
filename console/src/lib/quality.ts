import type { ApiQualityReport } from '../../../contract/api';

// The quality report's figures as the admin card shows them (docs/quality.md says what each means).

/** "12.5%"; a figure the run had nothing to measure on is "n/a", never a made-up 0. */
export function percent(x: number | null): string {
  return x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`;
}

export function millis(x: number | null): string {
  return x === null ? 'n/a' : x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`;
}

export interface QualityFigure {
  label: string;
  value: string;
  /** Which way is better, for the reader: "lower" for errors and latency. */
  better: 'lower' | 'higher';
}

/** The headline figures of one report, in the order the card lists them. */
export function qualityFigures(r: ApiQualityReport): QualityFigure[] {
  const { transcription: t, summary: s, agent: a, latency: l } = r.figures;
  return [
    { label: 'Word error rate', value: percent(t.wordErrorRate), better: 'lower' },
    { label: 'Number errors', value: percent(t.numberErrorRate), better: 'lower' },
    { label: 'Name errors', value: percent(t.nameErrorRate), better: 'lower' },
    { label: 'Summary: call-back number', value: percent(s.fields.callbackNumber.accuracy), better: 'higher' },
    { label: 'Summary: caller name', value: percent(s.fields.callerName.accuracy), better: 'higher' },
    { label: 'Summary: urgency', value: percent(s.fields.urgency.accuracy), better: 'higher' },
    { label: 'Agent: grounded answers', value: percent(a.groundedRate), better: 'higher' },
    { label: 'Agent: refused correctly', value: percent(a.refusedCorrectlyRate), better: 'higher' },
    { label: 'Agent: invented facts', value: String(a.inventedFacts), better: 'lower' },
    { label: 'Agent: first sentence (p50)', value: millis(l.agentFirstSentence.p50Ms), better: 'lower' },
  ];
}

/** "base.en + llama3.2:3b": the models in few words, to label a figure where the whole label does not fit (a phone). */
export function shortModels(r: Pick<ApiQualityReport, 'engines'>): string {
  return `${r.engines.stt.model ?? r.engines.stt.engine} + ${r.engines.llm.model}`;
}
