import type { ApiQualityReport, ApiSelfTestStatus } from '../../contract/api.js';
import { chosenTtsEngine } from '../../models/tts/index.js';
import type { Config } from '../config/config.js';
import { selfTestAdvice } from './advice.js';
import { engineFingerprint } from './fingerprint.js';
import { engineIdentity } from './identity.js';
import { newOwnerMode, type NewOwnerMode } from './new-owner-mode.js';
import { readSelfTestState, type SelfTestState } from './state.js';

// What the dashboard and the approval read of the self-test: its state file and newest
// report, set against the engines configured now.

/** The fingerprint of the engines this configuration uses now. */
export async function currentFingerprint(config: Config): Promise<string> {
  return engineFingerprint(await engineIdentity(config, chosenTtsEngine(config.tts)));
}

interface Gate {
  state: SelfTestState;
  fingerprint: string;
  /** The newest self-test report on the current engines, if one completed. */
  report: ApiQualityReport | undefined;
  mode: NewOwnerMode;
}

async function gate(config: Config, selfTests: ApiQualityReport[]): Promise<Gate> {
  const [state, fingerprint] = await Promise.all([readSelfTestState(config.dataDir), currentFingerprint(config)]);
  const report = selfTests.find((r) => r.selfTest?.fingerprint === fingerprint);
  const mode = newOwnerMode({
    selfTestEnabled: config.selfTest.enabled,
    firstAudioP50Ms: report ? (report.figures.latency.agentFirstAudio?.p50Ms ?? null) : undefined,
    accepted: state.accepted?.fingerprint === fingerprint,
    specDefault: 'voicemail',
  });
  return { state, fingerprint, report, mode };
}

/** The mode a newly approved owner starts in, by the self-test's rule (new-owner-mode.ts). */
export async function newOwnerModeNow(config: Config, selfTests: ApiQualityReport[]): Promise<NewOwnerMode> {
  return (await gate(config, selfTests)).mode;
}

/** `selfTests`: the self-test reports, newest first. */
export async function selfTestStatus(config: Config, selfTests: ApiQualityReport[]): Promise<ApiSelfTestStatus> {
  const g = await gate(config, selfTests);
  const newest = selfTests[0] ?? null;
  const shown = g.report ?? newest;
  const error = g.state.lastError?.fingerprint === g.fingerprint ? { at: g.state.lastError.at, message: g.state.lastError.message } : null;
  const state = !config.selfTest.enabled ? 'off' : g.state.running ? 'running' : g.report ? 'done' : error ? 'failed' : 'waiting';
  return {
    enabled: config.selfTest.enabled,
    state,
    report: shown,
    error,
    advice: shown ? selfTestAdvice(shown.figures.latency.agentFirstAudio?.p50Ms ?? null) : null,
    agentMode: {
      newOwnersKeptInVoicemail: g.mode.keptInVoicemail !== null,
      reason: g.mode.keptInVoicemail,
      accepted: g.state.accepted?.fingerprint === g.fingerprint ? { at: g.state.accepted.at, by: g.state.accepted.by } : null,
    },
  };
}
