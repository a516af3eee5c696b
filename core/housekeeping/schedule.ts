import cron from 'node-cron';
import { expireTrials } from '../accounts/users.js';
import { deleteExpiredSessions } from '../auth/sessions.js';
import { deleteEndedRateLimits } from '../http/shared-rate-limit-store.js';
import { claimPeriod, periodOf } from '../jobs/once-per-period.js';
import type { Services } from '../services.js';
import { backgroundPass } from '../db/background-pass.js';

export interface Housekeeping {
  stop(): void;
}

const EVERY_MS = 5 * 60_000;

/** Periodic upkeep: trials that have run out become expired; dead sessions, ended rate-limit windows and old push alerts are cleared. Once per five minutes across all cores. */
export async function startHousekeeping(services: Services): Promise<Housekeeping> {
  // BILLING=stripe: grace periods that ran out, and the trial and renewal reminders (nothing when unset).
  const { database, now, log, billing, push } = services;
  const sweep = backgroundPass(async () => {
    try {
      const t = now();
      if (!(await claimPeriod(database.db, 'housekeeping', periodOf(t, EVERY_MS), t))) return;
      const expired = await expireTrials(database.db, now());
      const sessions = await deleteExpiredSessions(database.db, now());
      // Rate-limit windows that have ended (only a cluster's shared store writes any).
      const rateLimitKeys = await deleteEndedRateLimits(database.db, now());
      const { changed: billingChanged, reminders } = await billing.sweep();
      // Push alerts' rows past their keeping (core/push: PUSH_ALERT_RETAIN_MS), never one still needed.
      const { purged: pushAlerts } = await push.sweep();
      if (expired || sessions || rateLimitKeys || billingChanged || reminders || pushAlerts) log.info({ expired, sessions, rateLimitKeys, billingChanged, reminders, pushAlerts }, 'housekeeping');
    } catch (err) {
      log.error({ err }, 'housekeeping failed');
    }
  });
  await sweep();
  const task = cron.schedule('*/5 * * * *', sweep, { name: 'housekeeping', noOverlap: true });
  return { stop: () => void task.stop() };
}
