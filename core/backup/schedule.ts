import cron from 'node-cron';
import type { Services } from '../services.js';
import { createBackup } from './backup.js';

/** Nightly online backups with retention (BACKUP_SCHEDULE, BACKUP_KEEP); `off` disables them. */
export function startBackupSchedule(services: Services): { stop(): void } {
  const { config, database, log } = services;
  if (config.backup.schedule === 'off') return { stop() {} };
  const task = cron.schedule(
    config.backup.schedule,
    async () => {
      try {
        const { dir, manifest } = await createBackup({
          sqlite: database.sqlite,
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
