import cron from 'node-cron';
import { brand } from '../mail/brand.js';
import type { Services } from '../services.js';
import { sendWeeklyDigests, type DigestPassResult } from './send-digests.js';
import { DIGEST_CRON } from './week.js';
import { backgroundPass } from '../db/background-pass.js';

export interface WeeklyDigest {
  /** One pass now (also run at start, at Monday 08:00 London and hourly after a failed send). */
  run(): Promise<DigestPassResult>;
  /** When node-cron fires the Monday run next (operators' checks, tests). */
  nextRun(): Date | null;
  stop(): Promise<void>;
}

/**
 * The weekly "to call back" e-mail. node-cron fires it at Monday 08:00 in Europe/London (so
 * 08:00 in both GMT and BST). The pass itself decides what is due from the clock and the
 * claims in the database, which makes the other runs safe: at start it catches up a digest
 * this week still owes (the box was down at 08:00), and hourly it retries one whose relay was
 * down. Neither can mail a week twice.
 */
export function startWeeklyDigest(services: Services): WeeklyDigest {
  const { database, mailer, config, now, log } = services;
  let running: Promise<DigestPassResult> | null = null;
  // One pass at a time: the hourly run must not start beside a slow Monday one.
  const digestPass = backgroundPass(() => sendWeeklyDigests(database.db, mailer, brand(config), now(), log));
  const run = () =>
    (running ??= digestPass()
      .then((r) => {
        if (r.sent) log.info({ weekOf: r.weekOf, sent: r.sent }, 'weekly digests sent');
        return r;
      })
      .finally(() => {
        running = null;
      }));
  const pass = () => void run().catch((err: unknown) => log.error({ err }, 'weekly digest failed'));
  pass();
  const weekly = cron.schedule(DIGEST_CRON, pass, { name: 'weekly-digest', timezone: 'Europe/London', noOverlap: true });
  const retry = cron.schedule('17 * * * *', pass, { name: 'weekly-digest-retry', noOverlap: true });
  return {
    run,
    nextRun: () => weekly.getNextRun(),
    async stop() {
      await weekly.stop();
      await retry.stop();
      await running?.catch(() => undefined);
    },
  };
}
