import fs from 'node:fs';
import { ensureFirstAdmin } from '../core/accounts/bootstrap-admin.js';
import { createLogger } from '../core/logging/logger.js';
import { stdoutLog } from '../core/logging/stdout-log.js';
import { printableError } from '../core/logging/safe-errors.js';
import { ConfigError, loadConfig, type Config } from '../core/config/config.js';
import { composeAppliance } from './compose.js';

/**
 * After the drain period (STOP_DRAIN_SECONDS), what the rest of the stop gets (jobs, the HTTP
 * server, the database) before the process exits regardless: a stop always finishes.
 * compose's stop_grace_period must exceed the two together.
 */
const STOP_AFTER_DRAIN_MS = 10_000;

/** The entry point: configuration from the environment, the appliance from the composition root (root/compose.ts), signals. */
async function main(): Promise<void> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }

  const log = createLogger({ level: config.logLevel, base: { service: 'core' } }, stdoutLog());
  const appliance = await composeAppliance(config, {
    log,
    http: { logger: log },
    // Before the background work starts, as the first thing on a new box.
    setup: async ({ database }) => {
      const admin = await ensureFirstAdmin(database.db, config.admin, new Date());
      if (admin?.oneTimePassword) {
        // Printed once on the console only (not the structured log), for the operator's first login.
        console.log(`\nFirst admin created: ${admin.email}\nOne-time password: ${admin.oneTimePassword}\nChange it under Account Settings after logging in.\n`);
      } else if (admin) {
        log.info({}, 'first admin created from ADMIN_EMAIL');
      }
    },
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Unref'd: it ends a stop that hangs, and never keeps a process alive by itself.
    setTimeout(() => {
      log.error({ afterMs: config.stop.drainMs + STOP_AFTER_DRAIN_MS }, 'the stop did not finish in time: exiting with work still pending');
      process.exit(1);
    }, config.stop.drainMs + STOP_AFTER_DRAIN_MS).unref();
    await appliance.stop(config.stop.drainMs);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  // A start-up failure may be a failed query (the first admin's): printed without its values.
  console.error(printableError(err));
  process.exit(1);
});
