import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pino from 'pino';
import { buildApp, type BuildOptions } from '../../core/app.js';
import { createLogger } from '../../core/logging/logger.js';
import { loadConfig, type Config } from '../../core/config/config.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { testDatabaseEnv } from './test-database.js';
import { createAgentEngines } from '../../core/engines/agent-engines.js';
import { createMailer, type Mailer } from '../../core/mail/mailer.js';
import type { App } from '../../core/http/fastify-types.js';
import { newHooks, withAppServices, type ServiceOptions, type Services } from '../../core/services.js';

export interface TestServer {
  url: string;
  app: App;
  services: Services;
  config: Config;
  database: DatabaseHandle;
  dataDir: string;
  /** Moves the server's clock (trials, token expiry). */
  clock: { offsetMs: number };
  close(): Promise<void>;
}

export interface TestServerOptions extends BuildOptions, ServiceOptions {
  env?: Record<string, string>;
  mailer?: Mailer;
  /** The core's logger (default: silent, or TEST_LOG's level). */
  log?: pino.Logger;
  /** Extra wiring before the app is built (services of later capabilities, the PBX); may add build options (its testTransfer). */
  setup?: (services: Services) => void | Partial<BuildOptions> | Promise<void | Partial<BuildOptions>>;
}

/** The real server over HTTP on a free port, with a fresh database (a SQLite file in a temp dir, or see testDatabaseEnv). */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'appliance-test-'));
  const log = opts.log ?? createLogger({ level: process.env.TEST_LOG ?? 'silent' });
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...(opts.env && 'DATABASE_URL' in opts.env ? {} : await testDatabaseEnv()), ...opts.env });
  const database = await openAppDatabase(config.database, log);
  const clock = { offsetMs: 0 };
  // Fixtures' phones are Ofcom's drama range (07700 900xxx), which is not in service, so the
  // outbound rules would refuse to text them a code or ring them: the operator's allow-list
  // lets the appliance reach them (unless the test sets its own), as an operator would list a range of theirs.
  if (!opts.env || !('OUTBOUND_ALLOW' in opts.env)) config.outbound = { ...config.outbound, allow: ['+447700900'] };
  const mailer =
    opts.mailer ??
    createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, outboxDir: path.join(dataDir, 'outbox', 'mail'), log });
  const services: Services = withAppServices(
    {
      config,
      database,
      mailer,
      now: () => new Date(Date.now() + clock.offsetMs),
      log,
      health: new Map(),
      hooks: newHooks(),
      agentEngines: createAgentEngines(config),
    },
    opts,
  );
  const built = (await opts.setup?.(services)) ?? {};
  // Fixture owners all sign up from 127.0.0.1, so suites get a sign-up allowance per address
  // that never runs out; test/security checks the real limit.
  const app = await buildApp(services, {
    ...opts,
    ...built,
    rateLimits: { signupsPerIp: { max: 100_000, windowMs: 60 * 60_000 }, ...opts.rateLimits },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    services,
    config,
    database,
    dataDir,
    clock,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
