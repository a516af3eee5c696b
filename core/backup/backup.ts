import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { RestoreError, type DatabaseCopy } from './database-copy.js';

export { RestoreError } from './database-copy.js';
const MANIFEST = 'manifest.json';

export interface BackupManifest {
  version: 1;
  createdAt: string;
  /** Which engine wrote the copy; absent in backups made before PostgreSQL support (SQLite). */
  engine?: DatabaseCopy['engine'];
  database: { file: string; sha256: string; bytes: number };
  recordings: { file: string; sha256: string; bytes: number }[];
  rows: Record<string, number>;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Backups are folders named by their UTC time, so names sort by age. */
const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, '-');

async function listBackups(backupDir: string): Promise<string[]> {
  try {
    const names = await fs.readdir(backupDir);
    const complete: string[] = [];
    for (const n of names.sort()) {
      if (await fs.stat(path.join(backupDir, n, MANIFEST)).then(() => true, () => false)) complete.push(n);
    }
    return complete;
  } catch {
    return [];
  }
}

/**
 * An online backup: the engine's consistent copy of the database (SQLite's backup API, or
 * pg_dump) taken while calls keep being written; recordings are immutable once stored, so a
 * file already in the previous backup is hard-linked rather than copied again. The manifest
 * is written last: a folder without one is an interrupted backup and is never restored.
 */
export async function createBackup(opts: {
  copy: DatabaseCopy;
  dataDir: string;
  backupDir: string;
  keep: number;
  now?: Date;
}): Promise<{ dir: string; manifest: BackupManifest }> {
  const now = opts.now ?? new Date();
  const previous = (await listBackups(opts.backupDir)).at(-1);
  const dir = path.join(opts.backupDir, stamp(now));
  const partial = `${dir}.partial`;
  await fs.rm(partial, { recursive: true, force: true });
  await fs.mkdir(path.join(partial, 'recordings'), { recursive: true });

  const dbPath = path.join(partial, opts.copy.file);
  const rows = await opts.copy.snapshot(dbPath);
  const database = { file: opts.copy.file, sha256: await sha256File(dbPath), bytes: (await fs.stat(dbPath)).size };

  const recordingsDir = path.join(opts.dataDir, 'recordings');
  const names = await fs.readdir(recordingsDir).catch(() => [] as string[]);
  const recordings: BackupManifest['recordings'] = [];
  for (const name of names.sort()) {
    if (name.endsWith('.partial') || name.startsWith('.')) continue;
    const src = path.join(recordingsDir, name);
    const stat = await fs.stat(src).catch(() => undefined);
    if (!stat?.isFile()) continue;
    const dest = path.join(partial, 'recordings', name);
    const prior = previous ? path.join(opts.backupDir, previous, 'recordings', name) : undefined;
    const priorStat = prior ? await fs.stat(prior).catch(() => undefined) : undefined;
    if (prior && priorStat?.size === stat.size) await fs.link(prior, dest).catch(() => fs.copyFile(src, dest));
    else await fs.copyFile(src, dest);
    recordings.push({ file: name, sha256: await sha256File(dest), bytes: stat.size });
  }

  const manifest: BackupManifest = { version: 1, createdAt: now.toISOString(), engine: opts.copy.engine, database, recordings, rows };
  await fs.writeFile(path.join(partial, MANIFEST), JSON.stringify(manifest, null, 2));
  await fs.rename(partial, dir);
  await pruneBackups(opts.backupDir, opts.keep);
  return { dir, manifest };
}

/** Keeps the newest `keep` complete backups. */
export async function pruneBackups(backupDir: string, keep: number): Promise<string[]> {
  const all = await listBackups(backupDir);
  const doomed = all.slice(0, Math.max(0, all.length - keep));
  for (const name of doomed) await fs.rm(path.join(backupDir, name), { recursive: true, force: true });
  return doomed;
}

/**
 * Brings a backup into an empty (or, with force, an existing) database and data folder after
 * checking every hash, then checks the restored rows against the manifest. Run it with the
 * core stopped.
 */
export async function restoreBackup(opts: { from: string; dataDir: string; copy: DatabaseCopy; force?: boolean }): Promise<BackupManifest> {
  const manifestPath = path.join(opts.from, MANIFEST);
  const manifest = JSON.parse(await fs.readFile(manifestPath, 'utf8').catch(() => {
    throw new RestoreError(`${opts.from} is not a complete backup (no ${MANIFEST})`);
  })) as BackupManifest;
  if (manifest.version !== 1) throw new RestoreError(`Unsupported backup version ${String(manifest.version)}`);
  const engine = manifest.engine ?? 'sqlite';
  if (engine !== opts.copy.engine) {
    throw new RestoreError(
      `This backup is of a ${engine} database and the appliance is configured for ${opts.copy.engine}: restore it on a ${engine} box` +
        (engine === 'sqlite' ? ', then move it with npm run db:move-to-postgres (docs/postgres.md)' : ''),
    );
  }

  const check = async (file: string, sha: string) => {
    const actual = await sha256File(file).catch(() => 'missing');
    if (actual !== sha) throw new RestoreError(`Backup file ${path.relative(opts.from, file)} is damaged or missing (hash mismatch)`);
  };
  await check(path.join(opts.from, manifest.database.file), manifest.database.sha256);
  for (const r of manifest.recordings) await check(path.join(opts.from, 'recordings', r.file), r.sha256);

  await fs.mkdir(path.join(opts.dataDir, 'recordings'), { recursive: true });
  const rows = await opts.copy.restore(path.join(opts.from, manifest.database.file), { force: opts.force ?? false });
  for (const r of manifest.recordings) {
    await fs.copyFile(path.join(opts.from, 'recordings', r.file), path.join(opts.dataDir, 'recordings', r.file));
  }
  const mismatched = Object.entries(manifest.rows).filter(([t, n]) => rows[t] !== n);
  if (mismatched.length) throw new RestoreError(`Restored row counts differ from the backup's: ${JSON.stringify(mismatched)}`);
  return manifest;
}
