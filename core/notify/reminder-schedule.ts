import cron from 'node-cron';
import type { Services } from '../services.js';
import { sendCallbackReminders } from './callback-reminders.js';
import type { CallNotifier } from './notifier.js';
import { backgroundPass } from '../db/background-pass.js';

export interface CallbackReminders {
  /** One pass now (also run by node-cron every minute while started); resolves to how many were sent. */
  remind(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/** The call-back reminders' schedule: a pass every minute, texting through the post-call notifier. */
export function callbackReminders(services: Pick<Services, 'database' | 'now' | 'log'>, notifier: CallNotifier): CallbackReminders {
  const { database, now, log } = services;
  let reminding: Promise<number> | null = null;
  // One pass at a time: a slow provider must not let the next minute's pass start beside it.
  const pass = backgroundPass(() => sendCallbackReminders(database.db, notifier, now(), log));
  const remind = () =>
    (reminding ??= pass().finally(() => {
      reminding = null;
    }));
  let task: ReturnType<typeof cron.schedule> | null = null;
  return {
    remind,
    start() {
      const pass = () => void remind().catch((err: unknown) => log.error({ err }, 'call-back reminders failed'));
      task ??= cron.schedule('* * * * *', pass, { name: 'callback-reminders', noOverlap: true });
    },
    async stop() {
      await task?.stop();
      task = null;
      await reminding?.catch(() => 0);
    },
  };
}
