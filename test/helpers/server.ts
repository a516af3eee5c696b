import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pino from 'pino';
import type { BuildOptions } from '../../core/app.js';
import { createLogger } from '../../core/logging/logger.js';
import { loadConfig, type Config } from '../../core/config/config.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { testDatabaseEnv } from './test-database.js';
import type { Mailer } from '../../core/mail/mailer.js';
import type { App } from '../../core/http/fastify-types.js';
import type { ServiceOptions, Services } from '../../core/services.js';
import { composeAppliance, type Appliance, type ApplianceOverrides } from '../../root/compose.js';

export interface TestServer {
  url: string;
  app: App;
  services: Services;
  config: Config;
  database: DatabaseHandle;
  dataDir: string;
  /** Moves the server's clock (trials, token expiry). */
  clock: { offsetMs: number };
  /** What the composition root started (the PBX, the agent flow, the call pipeline when asked for). */
  appliance: Appliance;
  close(): Promise<void>;
}

export interface TestServerOptions extends BuildOptions, ServiceOptions {
  env?: Record<string, string>;
  mailer?: Mailer;
  /** The core's logger (default: silent, or TEST_LOG's level). */
  log?: pino.Logger;
  /** Extra wiring before any work starts (a listener, a wrapped engine); may add build options (a stand-in PBX's testTransfer). */
  setup?: ApplianceOverrides['setup'];
  /** Background work to start, as production would (default none: a test starts what it tests). */
  background?: ApplianceOverrides['background'];
  postCall?: ApplianceOverrides['postCall'];
  /** Starts the PBX (needs ARI_URL in `env`), with the agent flow when `agent` is given too. */
  pbx?: ApplianceOverrides['pbx'];
  agent?: ApplianceOverrides['agent'];
  /** The agent's call-backs' dialler (a recording double); the sweep runs with background.callBacks. */
  callBackDialler?: ApplianceOverrides['callBackDialler'];
  /** How long close() lets calls in progress finish (default 2 s). */
  drainMs?: number;
}

/** Background work a test server runs when it names none: nothing, so each test starts what it tests. */
const NO_BACKGROUND = { housekeeping: false, prompts: false, pipeline: false, callerTexts: false, booking: false, backups: false, retention: false, digest: false, inbox: false, website: false, deposits: false, model: false, selfTest: false, push: false, callBacks: false };

/**
 * The real server over HTTP on a free port, with a fresh database (a SQLite file in a temp dir,
 * or see testDatabaseEnv), built by the composition root (root/compose.ts) as root/main.ts builds it.
 */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'appliance-test-'));
  const log = opts.log ?? createLogger({ level: process.env.TEST_LOG ?? 'silent' });
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...(opts.env && 'DATABASE_URL' in opts.env ? {} : await testDatabaseEnv()), ...opts.env });
  const clock = { offsetMs: 0 };
  // Fixtures' phones are Ofcom's drama range (07700 900xxx), which is not in service, so the
  // outbound rules would refuse to text them a code or ring them: the operator's allow-list
  // lets the appliance reach them (unless the test sets its own), as an operator would list a range of theirs.
  if (!opts.env || !('OUTBOUND_ALLOW' in opts.env)) config.outbound = { ...config.outbound, allow: ['+447700900'] };
  const { env: _env, mailer, log: _log, setup, background, postCall, pbx, agent, callBackDialler, drainMs = 2000, webhooks, callerTexts, booking, website, push, ...http } = opts;
  const appliance = await composeAppliance(config, {
    log,
    mailer,
    now: () => new Date(Date.now() + clock.offsetMs),
    services: { webhooks, callerTexts, booking, website, push },
    setup,
    background: { ...NO_BACKGROUND, ...background },
    postCall,
    pbx: pbx ?? false,
    agent: pbx && agent ? agent : false,
    callBackDialler,
    // Fixture owners all sign up from 127.0.0.1, so suites get a sign-up allowance per address
    // that never runs out; test/security checks the real limit.
    http: { ...http, rateLimits: { signupsPerIp: { max: 100_000, windowMs: 60 * 60_000 }, ...http.rateLimits } },
  });
  return {
    url: appliance.url!,
    app: appliance.app!,
    services: appliance.services,
    config,
    database: appliance.database,
    dataDir,
    clock,
    appliance,
    async close() {
      await appliance.stop(drainMs);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
