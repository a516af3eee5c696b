// Operator commands: `npm run backup` (online, safe while running) and
// `npm run restore -- <backup folder> [--force]` (with the appliance stopped).
import path from 'node:path';
import { loadConfig } from '../config/config.js';
import { openDatabase } from '../db/client.js';
import { createBackup, RestoreError, restoreBackup, tableCounts } from './backup.js';

async function run(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const config = loadConfig();
  if (command === 'backup') {
    const handle = openDatabase(path.join(config.dataDir, 'appliance.db'));
    try {
      const { dir, manifest } = await createBackup({ sqlite: handle.sqlite, dataDir: config.dataDir, backupDir: config.backup.dir, keep: config.backup.keep });
      console.log(`Backup written to ${dir}: ${manifest.recordings.length} recordings, rows ${JSON.stringify(manifest.rows)}`);
    } finally {
      await handle.close();
    }
  } else if (command === 'restore') {
    const from = rest.find((a) => !a.startsWith('--'));
    if (!from) throw new RestoreError('Usage: npm run restore -- <backup folder> [--force]');
    const manifest = await restoreBackup({ from: path.resolve(from), dataDir: config.dataDir, force: rest.includes('--force') });
    const handle = openDatabase(path.join(config.dataDir, 'appliance.db'));
    const rows = tableCounts(handle.sqlite);
    await handle.close();
    const mismatched = Object.entries(manifest.rows).filter(([t, n]) => rows[t] !== n);
    if (mismatched.length) throw new RestoreError(`Restored row counts differ: ${JSON.stringify(mismatched)}`);
    console.log(`Restored ${from} into ${config.dataDir}: ${manifest.recordings.length} recordings, rows ${JSON.stringify(rows)}`);
  } else {
    throw new RestoreError('Usage: backup | restore <backup folder> [--force]');
  }
}

run().catch((err) => {
  console.error(err instanceof RestoreError ? err.message : err);
  process.exit(1);
});
