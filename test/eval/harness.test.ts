import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QualityReportSchema } from '../../contract/schemas/quality.js';
import { loadConfig } from '../../core/config/config.js';
import { evaluate } from '../../eval/evaluate.js';
import { loadEvalSet, spread } from '../../core/quality/evaluation/set.js';
import { scriptEvalDoubles, type EvalDoubleBehaviour } from '../doubles/eval-engines.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

// The quality evaluation checks itself on the doubles: each double misbehaves in one known
// way, and the report must show it, computed from what the doubles answered.

const doubles = useEngineDoubles();
let root: string;
/** One recordings cache for the file: made once (the slow part), reused by every run. */
let audioDir: string;
const SUBSET = 12;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-harness-'));
  audioDir = path.join(root, 'audio');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A run on its own DATA_DIR (so "the previous report" is the one this test saved), with the doubles behaving as told. */
function runner(name: string) {
  const dataDir = path.join(root, name);
  return (behaviour: EvalDoubleBehaviour, opts: { limit?: number; modelName?: string } = {}) =>
    evaluate({
      config: loadConfig({ DATA_DIR: dataDir, ...doubles.env(), WHISPER_MODEL: opts.modelName ?? behaviour, TTS_ENGINE: 'espeak-ng' }),
      audioDir,
      limit: opts.limit,
      beforeRun: (set, recordings) => scriptEvalDoubles(doubles, set, recordings, behaviour),
    });
}

describe('npm run eval on the doubles', () => {
  it('a perfect double scores perfect on the whole set, and the report is saved in the format the console reads', { timeout: 300_000 }, async () => {
    const { report, files, text } = await runner('perfect')('perfect');
    const { transcription: t, summary: s, agent: a } = report.figures;
    expect(report.set).toMatchObject({ messages: 60, conversations: 44, partial: false });
    expect([t.wordErrorRate, t.nameErrorRate, t.numberErrorRate, t.failed]).toEqual([0, 0, 0, 0]);
    expect(t.numbers).toBeGreaterThan(50);
    for (const field of Object.values(s.fields)) expect(field.accuracy).toBe(1);
    expect(s.urgencyConfusion.urgent).toEqual({ urgent: 17, normal: 0, low: 0 });
    expect(s.urgencyConfusion.normal).toEqual({ urgent: 0, normal: 35, low: 0 });
    expect(s.urgencyConfusion.low).toEqual({ urgent: 0, normal: 0, low: 8 });
    expect([a.groundedRate, a.refusedCorrectlyRate, a.intentAccuracy, a.ungroundedRate, a.inventedFacts, a.failed]).toEqual([1, 1, 1, 0, 0, 0]);
    expect(a.turns).toBe(a.answerTurns + a.refuseTurns + a.intentTurns);
    // Every stage was timed on every item it ran on.
    expect(report.figures.latency.stt.count).toBe(60);
    expect(report.figures.latency.tts.count).toBe(a.answerTurns);

    const saved = JSON.parse(fs.readFileSync(files.json, 'utf8'));
    expect(Value.Check(QualityReportSchema, saved)).toBe(true);
    expect(saved.details.messages).toHaveLength(60);
    expect(fs.readFileSync(files.text, 'utf8')).toBe(text);
    expect(text).toContain('number error rate    0.0% over');
  });

  it('a double that garbles numbers raises the number error rate, and the next run says it is worse', { timeout: 120_000 }, async () => {
    const run = runner('garble');
    const before = await run('perfect', { limit: SUBSET });
    const after = await run('garble-numbers', { limit: SUBSET });
    const t = after.report.figures.transcription;
    expect(before.report.figures.transcription.numberErrorRate).toBe(0);
    expect(t.numberErrorRate).toBe(1);
    // Only the numbers were garbled: names come through, and the word error rate is the numbers' share of the words.
    expect(t.nameErrorRate).toBe(0);
    expect(t.wordErrorRate).toBeCloseTo(t.numbers / t.referenceWords, 3);
    expect(after.report.figures.summary.fields.callbackNumber.accuracy).toBeLessThan(1);
    const figure = (name: string) => after.comparison!.figures.find((f) => f.name === name);
    expect(figure('number error rate')).toMatchObject({ before: 0, after: 1, verdict: 'worse' });
    expect(figure('name error rate')!.verdict).toBe('same');
    expect(after.text).toContain('Compared with');
  });

  it('a double that invents a price has it counted as an invented fact, and its answers as ungrounded', { timeout: 120_000 }, async () => {
    const { report } = await runner('invent')('invent-prices', { limit: SUBSET });
    const a = report.figures.agent;
    const answerTurns = spread((await loadEvalSet()).conversations, SUBSET).flatMap((c) => c.turns).filter((t) => t.expect === 'answer').length;
    expect(a.answerTurns).toBe(answerTurns);
    // One invented price (and nothing else) in every answer.
    expect(a.inventedFacts).toBe(answerTurns);
    expect(a.turnsWithInventedFacts).toBe(answerTurns);
    expect(a.ungrounded).toBe(answerTurns);
    expect(a.grounded).toBe(0);
    expect(report.details.turns.filter((t) => t.expect === 'answer').every((t) => t.invented.join() === '1999')).toBe(true);
    // Refusals and intents are untouched by the invented sentence: it only rides on answers.
    expect(a.refusedCorrectlyRate).toBe(1);
  });

  it('the figures come from what the engines answered, not from what they are called', { timeout: 120_000 }, async () => {
    const { report } = await runner('named')('garble-numbers', { limit: SUBSET, modelName: 'perfect' });
    expect(report.engines.stt.model).toBe('perfect');
    expect(report.figures.transcription.numberErrorRate).toBe(1);
  });
});
