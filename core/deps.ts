// What every capability is built from, apart from the services built on it, so a service can
// take its dependencies' type without importing the module that builds every service.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config.js';
import type { DatabaseHandle } from './db/client.js';
import type { AgentEngines } from './engines/agent-engines.js';
import type { Mailer } from './mail/mailer.js';
import type { VoicePreference } from '../contract/api.js';

/**
 * What every capability is built from: configuration, storage and the shared engines. The
 * composition root (root/main.ts, or a test) makes these, then `withAppServices` builds the
 * services on top of them.
 */
export interface CoreDeps {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  /** Injected so tests can move time (trials, token expiry). */
  now: () => Date;
  log: FastifyBaseLogger;
  /** Reports on parts outside the core (PBX link, engines) for /healthz. */
  health: Map<string, () => HealthReport>;
  /** Cross-capability events, wired by the composition root (pbx → pipeline). */
  hooks: ServiceHooks;
  /** The agent's model, voice and transcription, shared by live calls and the console's previews. */
  agentEngines: AgentEngines;
}

export interface ServiceHooks {
  /** A call row is final and its recording (if any) is stored: the post-call pipeline takes over. */
  callFinished: Array<(callId: number) => void>;
  /** A finished call's post-call work is over: its transcript and summary are stored, or never will be. */
  callSettled: Array<(callId: number) => void>;
  /**
   * An owner saved their settings: the PBX re-makes their greeting now, not on the next call,
   * and removes the one it replaced (`before`: the greeting's settings before the save, when they changed).
   */
  settingsChanged: Array<(userId: number, before?: GreetingSettings) => void>;
}

/** What an owner's greeting is made from: its words (dialogue/spoken/greeting.ts) and its voice. */
export interface GreetingSettings {
  callGreeting: string | null;
  businessName: string | null;
  voicePreference: VoicePreference;
}

export function newHooks(): ServiceHooks {
  return { callFinished: [], callSettled: [], settingsChanged: [] };
}

export interface HealthReport {
  ok: boolean;
  detail?: string;
  /** Neither up nor down: the part is not set up on this box (a PBX with no SIP trunk). */
  notSetUp?: boolean;
}
