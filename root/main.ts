import fs from 'node:fs';
import { ensureFirstAdmin } from '../core/accounts/bootstrap-admin.js';
import { createLogger } from '../core/logging/logger.js';
import { printableError } from '../core/logging/safe-errors.js';
import { ConfigError, loadConfig, type Config } from '../core/config/config.js';
import { composeAppliance } from './compose.js';

/** Calls in progress get this long to finish on SIGTERM (compose's stop_grace_period must exceed it). */
const PBX_DRAIN_MS = 25_000;

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

  const log = createLogger({ level: config.logLevel, base: { service: 'core' } });
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
    await appliance.stop(PBX_DRAIN_MS);
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
