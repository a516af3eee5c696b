import path from 'node:path';
import cron from 'node-cron';
import type { Services } from '../services.js';
import { applyRetention, getRetention } from './retention.js';

/** Enforces the retention policy every night (and once at start, so a long-off box catches up). */
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
  const task = cron.schedule('15 3 * * *', run, { name: 'retention', noOverlap: true, timezone: 'Europe/London' });
  void run();
  return { stop: () => void task.stop(), runNow: run };
}
