// Operator commands: `npm run backup` (online, safe while running) and
// `npm run restore -- <backup folder> [--force]` (with the appliance stopped). Both act on the
// database the configuration names: the SQLite file under DATA_DIR, or DATABASE_URL's PostgreSQL.
import path from 'node:path';
import { loadConfig } from '../config/config.js';
import { createBackup, RestoreError, restoreBackup } from './backup.js';
import { databaseCopy } from './database-copy.js';
import { printableError } from '../logging/safe-errors.js';

async function run(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const config = loadConfig();
  const copy = databaseCopy(config.database);
  if (command === 'backup') {
    const { dir, manifest } = await createBackup({ copy, dataDir: config.dataDir, backupDir: config.backup.dir, keep: config.backup.keep });
    console.log(`Backup written to ${dir}: ${manifest.recordings.length} recordings, rows ${JSON.stringify(manifest.rows)}`);
  } else if (command === 'restore') {
    const from = rest.find((a) => !a.startsWith('--'));
    if (!from) throw new RestoreError('Usage: npm run restore -- <backup folder> [--force]');
    const manifest = await restoreBackup({ from: path.resolve(from), dataDir: config.dataDir, copy, force: rest.includes('--force') });
    console.log(`Restored ${from} into ${config.dataDir}: ${manifest.recordings.length} recordings, rows ${JSON.stringify(manifest.rows)}`);
  } else {
    throw new RestoreError('Usage: backup | restore <backup folder> [--force]');
  }
}

run().catch((err) => {
  // Anything else is printed without a failed query's values (core/logging/safe-errors.ts).
  console.error(err instanceof RestoreError ? err.message : printableError(err));
  process.exit(1);
});
