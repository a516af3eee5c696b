import type { ApiQualityReport } from '../contract/api.js';
import { URGENCIES } from '../dialogue/summary/summary.js';
import type { Comparison, ComparedFigure } from './compare.js';

// The report as an operator reads it in a terminal or the saved .txt beside the JSON.

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const ms = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x)} ms`);
const of = (s: { correct: number; total: number; accuracy: number | null }) => `${pct(s.accuracy)} (${s.correct}/${s.total})`;

export function renderReport(r: ApiQualityReport): string {
  const { transcription: t, summary: s, agent: a, latency: l } = r.figures;
  const lines = [
    `Quality evaluation, ${r.createdAt} (${Math.round(r.durationMs / 1000)} s)`,
    `Engines: speech-to-text ${r.engines.stt.engine}${r.engines.stt.model ? ` (${r.engines.stt.model})` : ''}, language model ${r.engines.llm.engine} ${r.engines.llm.model}, text-to-speech ${r.engines.tts.engine}`,
    `Set: ${r.set.messages} messages, ${r.set.conversations} conversations (${r.set.turns} turns)${r.set.partial ? ', PART of the set only' : ''}; recordings ${r.set.audioFingerprint} by ${r.set.audioTools}`,
    '',
    'Transcription',
    `  word error rate      ${pct(t.wordErrorRate)} over ${t.referenceWords} words${t.failed ? `, ${t.failed} recordings failed` : ''}`,
    `  name error rate      ${pct(t.nameErrorRate)} over ${t.nameWords} name words`,
    `  number error rate    ${pct(t.numberErrorRate)} over ${t.numbers} numbers`,
    '',
    `Summaries${s.failed ? ` (${s.failed} of ${s.messages} failed)` : ''}`,
    `  caller name          ${of(s.fields.callerName)}`,
    `  call-back number     ${of(s.fields.callbackNumber)}`,
    `  what they want       ${of(s.fields.wants)}`,
    `  urgency              ${of(s.fields.urgency)}`,
    `  booking              ${of(s.fields.booking)}`,
    '  urgency confusion (rows: the message, columns: the summary)',
    `  ${''.padEnd(8)}${URGENCIES.map((u) => u.padStart(8)).join('')}`,
    ...URGENCIES.map((ref) => `  ${ref.padEnd(8)}${URGENCIES.map((got) => String(s.urgencyConfusion[ref][got]).padStart(8)).join('')}`),
    '',
    `Agent (${a.turns} turns${a.failed ? `, ${a.failed} failed` : ''})`,
    `  grounded answers     ${pct(a.groundedRate)} (${a.grounded}/${a.answerTurns}; ${a.incomplete} incomplete, ${a.missed} missed)`,
    `  refused correctly    ${pct(a.refusedCorrectlyRate)} (${a.refusedCorrectly}/${a.refuseTurns})`,
    `  intent right         ${pct(a.intentAccuracy)} (${a.intentCorrect}/${a.intentTurns})`,
    `  ungrounded turns     ${pct(a.ungroundedRate)} (${a.ungrounded})`,
    `  invented facts       ${a.inventedFacts} (in ${a.turnsWithInventedFacts} turns)`,
    '',
    'Latency (p50 / p95 / max)',
    ...(
      [
        ['speech-to-text', l.stt],
        ['summary', l.summary],
        ['agent first sentence', l.agentFirstSentence],
        ['agent whole reply', l.agentReply],
        ['text-to-speech', l.tts],
      ] as const
    ).map(([name, x]) => `  ${name.padEnd(21)}${ms(x.p50Ms)} / ${ms(x.p95Ms)} / ${ms(x.maxMs)} (${x.count})`),
  ];
  return `${lines.join('\n')}\n`;
}

export function renderComparison(c: Comparison, against: ApiQualityReport): string {
  const show = (f: ComparedFigure, x: number | null) => (f.kind === 'rate' ? pct(x) : f.kind === 'ms' ? ms(x) : x === null ? 'n/a' : String(x));
  const lines = [`Compared with ${against.createdAt} (${against.models})`];
  for (const caveat of c.caveats) lines.push(`  NOTE: ${caveat}`);
  for (const f of c.figures) lines.push(`  ${f.name.padEnd(36)}${show(f, f.before).padStart(10)} → ${show(f, f.after).padEnd(10)} ${f.verdict === 'better' ? 'better' : f.verdict === 'worse' ? 'WORSE' : f.verdict}`);
  const better = c.figures.filter((f) => f.verdict === 'better').length;
  const worse = c.figures.filter((f) => f.verdict === 'worse').length;
  lines.push(`  ${better} better, ${worse} worse`);
  return `${lines.join('\n')}\n`;
}
