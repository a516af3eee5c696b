import cron from 'node-cron';
import { expireTrials } from '../accounts/users.js';
import { deleteExpiredSessions } from '../auth/sessions.js';
import type { Services } from '../services.js';

export interface Housekeeping {
  stop(): void;
}

/** Periodic upkeep: trials that have run out become expired; dead sessions are cleared. */
export async function startHousekeeping(services: Services): Promise<Housekeeping> {
  const { database, now, log } = services;
  const sweep = async () => {
    try {
      const expired = await expireTrials(database.db, now());
      const sessions = await deleteExpiredSessions(database.db, now());
      if (expired || sessions) log.info({ expired, sessions }, 'housekeeping');
    } catch (err) {
      log.error({ err }, 'housekeeping failed');
    }
  };
  await sweep();
  const task = cron.schedule('*/5 * * * *', sweep, { name: 'housekeeping', noOverlap: true });
  return { stop: () => void task.stop() };
}
