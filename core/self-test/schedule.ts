import type pino from 'pino';
import { ollamaAnswers } from '../../models/llm/ollama.js';
import { whisperAnswers } from '../../models/stt/whisper-server.js';
import { createTextToSpeech } from '../../models/tts/index.js';
import type { TextToSpeech } from '../../models/tts/tts.js';
import type { Config } from '../config/config.js';
import type { EnginePools } from '../engines/engine-pools.js';
import { printableError } from '../logging/safe-errors.js';
import { describeEngines, engineFingerprint, selfTestDue } from './fingerprint.js';
import { engineIdentity } from './identity.js';
import { runSelfTest } from './run.js';
import { updateSelfTestState } from './state.js';

// When the self-test runs: once the engines first answer, and again whenever the engines'
// fingerprint (model, addresses, voices) differs from the last completed run's, looked at on
// start and every `recheckMs` after (a voice added to the folder needs no restart). Not on a
// restart with the same engines. One run at a time; a failure is written to the state file
// and the log, and the core carries on.

export interface SelfTestSchedule {
  /** Resolves when the run in progress (if any) has ended; the tests wait on it. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface ScheduleDeps {
  config: Config;
  pools: EnginePools;
  liveCalls: () => number;
  /** False while the box is still pulling OLLAMA_MODEL (core/engines/model-readiness): a run then would only fail. */
  modelReady?: () => boolean;
  log: pino.Logger;
  /** Default: the engine the configuration picks, as the calls' prompt cache does. */
  tts?: TextToSpeech;
  /** How often the engines are asked whether they answer while they do not (default 15 s). */
  probeMs?: number;
  /** How often the fingerprint is looked at again once a run is done (default 10 min). */
  recheckMs?: number;
  /** How often a run waiting for calls to end looks again (default 2 s). */
  pollMs?: number;
}

export function startSelfTest(deps: ScheduleDeps): SelfTestSchedule {
  const { config, log } = deps;
  const aborts = new AbortController();
  const signal = aborts.signal;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  // The engines a run failed on in this process: not tried again until they change or the core restarts.
  let failedOn: string | null = null;

  const enginesAnswer = async () => {
    const whisper = config.whisper.endpoints[0]?.url;
    const ollama = config.ollama.endpoints[0]?.url;
    if (!whisper || !ollama || deps.modelReady?.() === false) return false;
    const [w, o] = await Promise.all([whisperAnswers(whisper).catch(() => false), ollamaAnswers(ollama).catch(() => false)]);
    return w && o;
  };

  const once = async (): Promise<number> => {
    if (!(await enginesAnswer())) return deps.probeMs ?? 15_000;
    const tts = deps.tts ?? createTextToSpeech(config.tts);
    const identity = await engineIdentity(config, tts.engine);
    const fingerprint = engineFingerprint(identity);
    const state = await updateSelfTestState(config.dataDir, (s) => ({ ...s, running: null }));
    if (!selfTestDue(fingerprint, state.lastCompleted?.fingerprint ?? null) || fingerprint === failedOn) return deps.recheckMs ?? 600_000;
    const engines = describeEngines(identity);
    log.info({ fingerprint, engines }, 'self-test: running on these engines (background priority, paused while calls are in progress)');
    await updateSelfTestState(config.dataDir, (s) => ({ ...s, running: { fingerprint, since: new Date().toISOString() } }));
    try {
      const { report, file } = await runSelfTest({ config, pools: deps.pools, tts, liveCalls: deps.liveCalls, signal, pollMs: deps.pollMs }, { fingerprint, engines });
      await updateSelfTestState(config.dataDir, (s) => ({ ...s, running: null, lastCompleted: { fingerprint, at: report.createdAt }, lastError: null }));
      log.info({ file, firstAudioP50Ms: report.figures.latency.agentFirstAudio?.p50Ms ?? null }, 'self-test: done');
    } catch (err) {
      if (signal.aborted) return 0;
      const message = printableError(err);
      await updateSelfTestState(config.dataDir, (s) => ({ ...s, running: null, lastError: { fingerprint, at: new Date().toISOString(), message } }));
      log.error({ err: message }, 'self-test: failed; it runs again when the engines change or the core restarts');
      // The same engines are not tried again in this process: a broken set-up would otherwise run all day.
      failedOn = fingerprint;
    }
    return deps.recheckMs ?? 600_000;
  };

  const tick = () => {
    current = once()
      .catch((err: unknown) => {
        log.error({ err: printableError(err) }, 'self-test: could not check the engines');
        return deps.recheckMs ?? 600_000;
      })
      .then((next) => {
        if (!signal.aborted && next > 0) timer = setTimeout(tick, next).unref();
      });
  };
  tick();
  return {
    idle: () => current,
    async stop() {
      aborts.abort();
      clearTimeout(timer);
      await current.catch(() => undefined);
    },
  };
}
