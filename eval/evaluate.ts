import fs from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import type { ApiQualityReport } from '../contract/api.js';
import { QualityReportSchema } from '../contract/schemas/quality.js';
import type { Config } from '../core/config/config.js';
import { createAgentReplies, createSummaryModel } from '../core/engines/agent-engines.js';
import { createEnginePools } from '../core/engines/engine-pools.js';
import { qualityReportsDir, readQualityReports } from '../core/quality/reports.js';
import { ollamaAnswers } from '../models/llm/ollama.js';
import { createSpeechToText } from '../models/stt/factory.js';
import { whisperAnswers } from '../models/stt/whisper-server.js';
import { createTextToSpeech } from '../models/tts/index.js';
import { audioFingerprint, makeRecordings, toolVersions, type Recording } from '../core/quality/evaluation/audio.js';
import { compareReports, type Comparison } from './compare.js';
import { renderComparison, renderReport } from './render.js';
import { buildReport, type QualityEngines, type SavedReport } from '../core/quality/evaluation/report.js';
import { runSet } from '../core/quality/evaluation/run.js';
import { loadEvalSet, spread, type EvalSet } from '../core/quality/evaluation/set.js';
import { loadWebsiteSet, renderWebsite, runWebsiteSet, type WebsiteFigures } from './website.js';

// One evaluation: the set, its recordings, the engines the configuration names (built by the
// same factories the core uses), the run, the report saved under $DATA_DIR/eval/reports and
// compared with the one before it (or the one named). `npm run eval` (eval/cli.ts) and the
// harness's own tests (test/eval) both come through here.

export interface EvaluateOptions {
  config: Config;
  /** Run only this many messages and conversations, spread over the set (a quick check; marked partial). */
  limit?: number;
  /** Where recordings are cached (default $DATA_DIR/eval/audio). */
  audioDir?: string;
  /** A saved report to compare with; default: the newest one saved before this run. */
  against?: string;
  /** Called with the set and its recordings before any engine is asked (the test doubles learn their answers here). */
  beforeRun?: (set: EvalSet, recordings: Recording[]) => void | Promise<void>;
  progress?: (line: string) => void;
}

export interface Evaluation {
  report: SavedReport;
  text: string;
  comparison: Comparison | null;
  files: { json: string; text: string };
}

export async function evaluate(opts: EvaluateOptions): Promise<Evaluation> {
  const { config } = opts;
  const progress = opts.progress ?? (() => undefined);
  const whole = await loadEvalSet();
  const set: EvalSet = opts.limit ? { messages: spread(whole.messages, opts.limit), conversations: spread(whole.conversations, opts.limit) } : whole;
  await engineReachable(config);

  progress('making the recordings (cached after the first run)');
  const recordings = await makeRecordings(set.messages, opts.audioDir ?? path.join(config.dataDir, 'eval', 'audio'));
  await opts.beforeRun?.(set, recordings);

  const pools = createEnginePools(config);
  const tts = createTextToSpeech(config.tts);
  const engines: QualityEngines = {
    stt: { engine: 'whisper.cpp', model: config.whisper.model ?? null, endpoints: config.whisper.endpoints.length },
    llm: { engine: 'ollama', model: config.ollama.model, endpoints: config.ollama.endpoints.length },
    tts: { engine: tts.engine },
  };
  const startedAt = new Date();
  const websiteSet = await loadWebsiteSet();
  let outputs;
  let website: WebsiteFigures;
  try {
    const llm = createSummaryModel(config, pools);
    const replies = createAgentReplies(config, pools);
    outputs = await runSet({ stt: createSpeechToText(pools.stt, 'background'), llm, replies, tts }, set, recordings, progress);
    // The website set runs whole even with --limit: it is one site, and its figures mean little in part.
    website = await runWebsiteSet({ llm, replies }, websiteSet, progress);
  } finally {
    pools.close();
  }
  const report = buildReport({
    ...set,
    outputs,
    engines,
    audioFingerprint: audioFingerprint(recordings),
    audioTools: await toolVersions(),
    partial: set.messages.length < whole.messages.length || set.conversations.length < whole.conversations.length,
    startedAt,
    finishedAt: new Date(),
  });

  const dir = qualityReportsDir(config.dataDir);
  const against = opts.against ? await readReport(opts.against) : ((await readQualityReports(dir)).reports[0] ?? null);
  const comparison = against ? compareReports(against, report) : null;
  // The website figures are printed and kept in the .txt; the saved JSON stays in the quality report's format the console reads.
  const text = renderReport(report) + `\n${renderWebsite(website)}` + (comparison && against ? `\n${renderComparison(comparison, against)}` : '');
  await fs.mkdir(dir, { recursive: true });
  const base = path.join(dir, report.createdAt.replace(/[:.]/g, '-'));
  const files = { json: `${base}.json`, text: `${base}.txt` };
  // Written whole, then renamed: the console never reads half a report.
  await fs.writeFile(`${files.json}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
  await fs.rename(`${files.json}.tmp`, files.json);
  await fs.writeFile(files.text, text);
  return { report, text, comparison, files };
}

async function readReport(file: string): Promise<ApiQualityReport> {
  let data: unknown;
  try {
    data = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the report to compare with (${file}): ${(err as Error).message}`);
  }
  if (!Value.Check(QualityReportSchema, data)) throw new Error(`${file} is not a quality report this version reads: run the evaluation again to make one`);
  return data as ApiQualityReport;
}

/** Fails before the long part when an engine the run needs is not there, saying what to set. */
async function engineReachable(config: Config): Promise<void> {
  const whisper = config.whisper.endpoints[0]?.url;
  if (!whisper) throw new Error('WHISPER_URL is not set: point it at your whisper.cpp server (the `whisper` compose service), as the core is configured');
  const check = async (name: string, url: string, answers: (u: string) => Promise<boolean>) => {
    const ok = await answers(url).catch(() => false);
    if (!ok) throw new Error(`${name} does not answer at ${url}: start it, or set ${name === 'Ollama' ? 'OLLAMA_URL' : 'WHISPER_URL'} to where it runs`);
  };
  await check('Whisper', whisper, whisperAnswers);
  await check('Ollama', config.ollama.endpoints[0]!.url, ollamaAnswers);
}
