import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/config.js';
import { createAgentReplies, createSummaryModel } from '../engines/agent-engines.js';
import type { EnginePools } from '../engines/engine-pools.js';
import { createSpeechToText } from '../../models/stt/factory.js';
import type { TextToSpeech } from '../../models/tts/tts.js';
import { audioFingerprint, makeRecordings, toolVersions } from '../quality/evaluation/audio.js';
import { buildReport, latency, type SavedReport } from '../quality/evaluation/report.js';
import { runMessage, type MessageOutput } from '../quality/evaluation/run.js';
import { loadEvalSet, type EvalMessage } from '../quality/evaluation/set.js';
import { qualityReportsDir } from '../quality/reports.js';
import { selfTestSubset } from './subset.js';
import { runTimedConversation, turnRecordingId, type TimedTurn } from './turns.js';

// One self-test: the subset (subset.ts) through the engines the calls use, every request at
// background priority (a caller's request takes the slot first), one message or turn at a
// time and only while no call is in progress on this node; scored as `npm run eval` scores
// (core/quality/evaluation) and saved beside its reports, marked as the box's own.

export interface SelfTestDeps {
  config: Config;
  /** The pools the calls use (services.agentEngines.pools). */
  pools: EnginePools;
  tts: TextToSpeech;
  /** Calls in progress on this node: the self-test waits while there are any. */
  liveCalls: () => number;
  signal: AbortSignal;
  /** How often a waiting self-test looks again. */
  pollMs?: number;
}

/** Caller voice for the turns' recordings: the set's plainest UK voice, no noise. */
const TURN_VOICE = { voice: 'en-gb', speed: 165, noise: null } as const;

export async function runSelfTest(deps: SelfTestDeps, mark: { fingerprint: string; engines: string }): Promise<{ report: SavedReport; file: string }> {
  const { config, pools, signal } = deps;
  if (!pools.stt) throw new Error('WHISPER_URL is not set: the self-test needs the whisper.cpp server the calls use');
  const quiet = async () => {
    while (deps.liveCalls() > 0) await sleep(deps.pollMs ?? 2000, undefined, { signal });
    signal.throwIfAborted();
  };
  const set = selfTestSubset(await loadEvalSet());
  const audioDir = path.join(config.dataDir, 'eval', 'audio');
  const recordings = await makeRecordings(set.messages, audioDir);
  const turnEntries: EvalMessage[] = set.conversations.flatMap((c) =>
    c.turns.map((t, k) => ({ id: turnRecordingId(c.id, k), ...TURN_VOICE, callerId: '', transcript: t.caller, facts: { callerName: null, callbackNumber: null, wants: ['--'], urgency: 'normal' as const, booking: false } })),
  );
  const turnRecordings = new Map((await makeRecordings(turnEntries, audioDir)).map((r) => [r.id, r.file]));

  const stt = createSpeechToText(pools.stt, 'background');
  const llm = createSummaryModel(config, pools);
  const replies = createAgentReplies(config, pools, 'background');
  const speak = (text: string, file: string) => pools.tts.run('background', (_url, s) => deps.tts.synthesize(text, 'female', file, s), signal);

  const startedAt = new Date();
  const messages: MessageOutput[] = [];
  for (const [i, m] of set.messages.entries()) {
    await quiet();
    messages.push(await runMessage({ stt, llm, replies, tts: deps.tts }, m, recordings[i]!.file));
  }
  const turns: TimedTurn[] = [];
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'self-test-'));
  try {
    for (const c of set.conversations) turns.push(...(await runTimedConversation({ stt, replies, speak }, c, turnRecordings, workDir, quiet)));
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }

  const report = buildReport({
    ...set,
    outputs: { messages, turns },
    engines: {
      stt: { engine: 'whisper.cpp', model: config.whisper.model ?? null, endpoints: config.whisper.endpoints.length },
      llm: { engine: 'ollama', model: config.ollama.model, endpoints: config.ollama.endpoints.length },
      tts: { engine: deps.tts.engine },
    },
    audioFingerprint: audioFingerprint(recordings),
    audioTools: await toolVersions(),
    // A part of the set: its figures are not to be compared with a whole `npm run eval`.
    partial: true,
    startedAt,
    finishedAt: new Date(),
  });
  report.figures.latency.agentFirstAudio = latency(turns.map((t) => t.firstAudioMs));
  report.selfTest = mark;

  const dir = qualityReportsDir(config.dataDir);
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `self-test-${report.createdAt.replace(/[:.]/g, '-')}.json`);
  // Written whole, then renamed: the console never reads half a report.
  await fs.writeFile(`${file}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
  await fs.rename(`${file}.tmp`, file);
  return { report, file };
}
