import cron from 'node-cron';
import { expireTrials } from '../accounts/users.js';
import { deleteExpiredSessions } from '../auth/sessions.js';
import type { Services } from '../services.js';

export interface Housekeeping {
  stop(): void;
}

/** Periodic upkeep: trials that have run out become expired; dead sessions are cleared. */
export function startHousekeeping(services: Services): Housekeeping {
  const { database, now, log } = services;
  const sweep = () => {
    try {
      const expired = expireTrials(database.db, now());
      const sessions = deleteExpiredSessions(database.db, now());
      if (expired || sessions) log.info({ expired, sessions }, 'housekeeping');
    } catch (err) {
      log.error({ err }, 'housekeeping failed');
    }
  };
  sweep();
  const task = cron.schedule('*/5 * * * *', sweep, { name: 'housekeeping', noOverlap: true });
  return { stop: () => void task.stop() };
}
