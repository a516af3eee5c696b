import cron from 'node-cron';
import type { Services } from '../services.js';
import { claimPeriod, periodOf } from '../jobs/once-per-period.js';
import { createBackup } from './backup.js';
import { databaseCopy } from './database-copy.js';

/**
 * Nightly online backups with retention (BACKUP_SCHEDULE, BACKUP_KEEP); `off` disables them.
 * Every core fires the schedule; the one that claims the minute writes the backup.
 */
export function startBackupSchedule(services: Services): { stop(): void } {
  const { config, database, log, now } = services;
  if (config.backup.schedule === 'off') return { stop() {} };
  const task = cron.schedule(
    config.backup.schedule,
    async () => {
      try {
        const t = now();
        if (!(await claimPeriod(database.db, 'backup', periodOf(t, 60_000), t))) return;
        const { dir, manifest } = await createBackup({
          copy: databaseCopy(config.database, database.dialect === 'sqlite' ? database.sqlite : undefined),
          dataDir: config.dataDir,
          backupDir: config.backup.dir,
          keep: config.backup.keep,
        });
        log.info({ dir, recordings: manifest.recordings.length }, 'backup written');
      } catch (err) {
        log.error({ err }, 'backup failed');
      }
    },
    { name: 'backup', noOverlap: true, timezone: 'Europe/London' },
  );
  return { stop: () => void task.stop() };
}
