import path from 'node:path';
import cron from 'node-cron';
import { claimPeriod } from '../jobs/once-per-period.js';
import type { Services } from '../services.js';
import { DAY_MS, londonDayNumber } from '../time/london-time.js';
import { applyRetention, getRetention } from './retention.js';

/**
 * Enforces the retention policy every night (and once at start, so a long-off box catches up):
 * once per London day across all cores. runNow (an admin's or a test's explicit run) always runs.
 */
export function startRetentionSchedule(services: Services): { stop(): void; runNow(): Promise<void> } {
  const { config, database, log, now } = services;
  const run = async () => {
    try {
      const policy = await getRetention(database.db, config.retention);
      const result = await applyRetention(database.db, path.resolve(config.dataDir), policy, now());
      if (result.recordings || result.transcripts) log.info({ ...result, policy }, 'retention applied');
    } catch (err) {
      log.error({ err }, 'retention run failed');
    }
  };
  const scheduled = async () => {
    const t = now();
    const day = new Date(londonDayNumber(t.getTime()) * DAY_MS);
    const claimed = await claimPeriod(database.db, 'retention', day, t).catch((err: unknown) => {
      log.error({ err }, 'retention claim failed');
      return false;
    });
    if (claimed) await run();
  };
  const task = cron.schedule('15 3 * * *', scheduled, { name: 'retention', noOverlap: true, timezone: 'Europe/London' });
  void scheduled();
  return { stop: () => void task.stop(), runNow: run };
}
