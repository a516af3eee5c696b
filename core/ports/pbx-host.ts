// What the composition root hands the PBX (startPbx) and the agent flow (installAgentFlow) from
// the built services, and the shapes they hand back for the root to register: their health
// reports and the PBX's settings listener. Anything else of the core reaches them through the
// other ports in this folder.
import type { Services } from '../services.js';

export type { GreetingSettings, HealthReport, ServiceHooks } from '../deps.js';
export { DEFAULT_AGENT_STALL } from '../config/config.js';

export type { AgentGuardReports } from '../agent-guard/agent-guard.js';
import type { LiveCallFeed } from './live-calls.js';

/** The configuration, log, clock, hooks and health map, the agent's engines, the booking desk and the slow-box guard's reports. */
export type PbxHost = Pick<Services, 'config' | 'log' | 'now' | 'hooks' | 'health' | 'agentEngines' | 'booking' | 'agentGuard'> & {
  /** The Live page's registry (core/live, issue 54): the dialogue line by line as it is said. */
  live: LiveCallFeed;
};
