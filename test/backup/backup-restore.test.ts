import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, pruneBackups, restoreBackup, RestoreError, sha256File } from '../../core/backup/backup.js';
import { postgresCopy, sqliteCopy, type DatabaseCopy } from '../../core/backup/database-copy.js';
import { tablesOf } from '../../core/db/schema.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { sqliteOf } from '../../core/db/client.js';

// The same backups on both engines: SQLite's backup API, and pg_dump/pg_restore in a snapshot
// when DATABASE_URL names PostgreSQL. Each engine gets a box with five recorded calls.
const postgres = usePostgres();
const temp: string[] = [];
const mkTemp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  temp.push(d);
  return d;
};
afterAll(() => {
  for (const d of temp) fs.rmSync(d, { recursive: true, force: true });
});
const root = path.resolve(import.meta.dirname, '../..');

interface Engine {
  name: 'sqlite' | 'postgres';
  /** The environment naming the database of a box (a fresh one when no URL is given). */
  env(url?: string): Promise<Record<string, string>>;
  /** The copy of the live box's database, and of a fresh box's. */
  live(server: TestServer): DatabaseCopy;
  fresh(dataDir: string, url?: string): Promise<{ copy: DatabaseCopy; env: Record<string, string> }>;
}

const engines: Engine[] = [
  {
    name: 'sqlite',
    // An empty DATABASE_URL is SQLite's, even in a TEST_DATABASE=postgres run.
    env: async () => ({ DATABASE_URL: '' }),
    live: (server) => sqliteCopy(path.join(server.dataDir, 'appliance.db'), sqliteOf(server.database)),
    fresh: async (dataDir) => ({ copy: sqliteCopy(path.join(dataDir, 'appliance.db')), env: { DATABASE_URL: '' } }),
  },
  {
    name: 'postgres',
    env: async (url) => ({ DATABASE_URL: url ?? (await postgres().createDatabase({ migrated: true })) }),
    live: (server) => postgresCopy((server.config.database as { url: string }).url),
    fresh: async () => {
      const url = await postgres().createDatabase();
      return { copy: postgresCopy(url), env: { DATABASE_URL: url } };
    },
  },
];

describe.each(engines)('backup and restore on $name', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: await engine.env() });
    const { calls } = tablesOf(server.database.db);
    const { user } = await activeCustomer(server);
    const rec = path.join(server.dataDir, 'recordings');
    fs.mkdirSync(rec, { recursive: true });
    for (let i = 1; i <= 5; i++) {
      const file = `call-test-${i}.wav`;
      // Real audio: sox's synth, so hashes cover genuine WAV bytes.
      execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', path.join(rec, file), 'synth', String(0.2 * i), 'sine', String(300 + i * 50)]);
      await server.database.db.insert(calls).values({ userId: user.id, fromNumber: '+447700900111', toNumber: '+447700900001', status: 'voicemail', duration: 12, recordingFile: file });
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const backup = (backupDir: string, keep = 3, now?: Date) => createBackup({ copy: engine.live(server), dataDir: server.dataDir, backupDir, keep, now });

  it('brings a fresh box back to the same rows and the same recording bytes', async () => {
    const { dir, manifest } = await backup(mkTemp());
    expect(manifest.engine).toBe(engine.name);
    expect(manifest.recordings).toHaveLength(5);
    expect(manifest.rows.calls).toBe(5);

    const freshDataDir = mkTemp();
    const fresh = await engine.fresh(freshDataDir);
    await restoreBackup({ from: dir, dataDir: freshDataDir, copy: fresh.copy });
    // The restored box starts on the restored database and holds the same calls.
    const restored = await startTestServer({ env: { ...fresh.env, DATA_DIR: freshDataDir } });
    const { calls } = tablesOf(restored.database.db);
    try {
      const rows = await restored.database.db.select().from(calls);
      expect(rows.map((c) => c.recordingFile).sort()).toEqual(manifest.recordings.map((r) => r.file).sort());
    } finally {
      await restored.close();
    }
    for (const r of manifest.recordings) {
      const original = await sha256File(path.join(server.dataDir, 'recordings', r.file));
      expect(await sha256File(path.join(freshDataDir, 'recordings', r.file))).toBe(original);
    }
  });

  it('hard-links unchanged recordings into the next backup and keeps only the newest N', async () => {
    const backupDir = mkTemp();
    const first = await backup(backupDir, 2, new Date('2026-11-01T02:30:00Z'));
    const second = await backup(backupDir, 2, new Date('2026-11-02T02:30:00Z'));
    const file = first.manifest.recordings[0]!.file;
    const a = fs.statSync(path.join(first.dir, 'recordings', file));
    const b = fs.statSync(path.join(second.dir, 'recordings', file));
    expect(b.ino).toBe(a.ino);
    await backup(backupDir, 2, new Date('2026-11-03T02:30:00Z'));
    expect(fs.readdirSync(backupDir).sort()).toEqual(['2026-11-02T02-30-00-000Z', '2026-11-03T02-30-00-000Z']);
    expect(await pruneBackups(backupDir, 1)).toEqual(['2026-11-02T02-30-00-000Z']);
  });

  it('refuses a damaged backup and never overwrites a live database without --force', async () => {
    const { calls } = tablesOf(server.database.db);
    const { dir, manifest } = await backup(mkTemp());
    await expect(restoreBackup({ from: dir, dataDir: server.dataDir, copy: engine.live(server) })).rejects.toThrow(/already.*--force/);
    expect(await server.database.db.select().from(calls)).toHaveLength(5);

    const rec = path.join(dir, 'recordings', manifest.recordings[0]!.file);
    fs.unlinkSync(rec); // break the hard link before damaging the copy
    fs.writeFileSync(rec, 'not audio');
    const freshDataDir = mkTemp();
    const fresh = await engine.fresh(freshDataDir);
    await expect(restoreBackup({ from: dir, dataDir: freshDataDir, copy: fresh.copy })).rejects.toBeInstanceOf(RestoreError);
    // Nothing was written: a later restore of a good backup still finds an empty target.
    await expect(restoreBackup({ from: (await backup(mkTemp())).dir, dataDir: freshDataDir, copy: fresh.copy })).resolves.toMatchObject({ rows: { calls: 5 } });
  });

  it('ignores an interrupted backup (no manifest)', async () => {
    const backupDir = mkTemp();
    fs.mkdirSync(path.join(backupDir, '2026-01-01T00-00-00-000Z.partial'), { recursive: true });
    const from = path.join(backupDir, '2026-01-01T00-00-00-000Z.partial');
    await expect(restoreBackup({ from, dataDir: mkTemp(), copy: engine.live(server) })).rejects.toThrow(/not a complete backup/);
  });

  it('`backup` then `restore` into a fresh box reproduce the rows, as the README documents', async () => {
    const backupDir = mkTemp();
    const cli = (args: string[], dataDir: string, env: Record<string, string>) =>
      execFileSync(process.execPath, ['--import', 'tsx', 'core/backup/cli.ts', ...args], {
        cwd: root,
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, BACKUP_DIR: backupDir, ...env },
        encoding: 'utf8',
      });
    const liveEnv: Record<string, string> = engine.name === 'postgres' ? { DATABASE_URL: (server.config.database as { url: string }).url } : {};
    expect(cli(['backup'], server.dataDir, liveEnv)).toMatch(/Backup written to .*: 5 recordings/);
    const [name] = fs.readdirSync(backupDir);
    const freshDataDir = mkTemp();
    const fresh = await engine.fresh(freshDataDir);
    expect(cli(['restore', path.join(backupDir, name!)], freshDataDir, fresh.env)).toMatch(/Restored .*5 recordings.*"calls":5/);
  });
});

describe('a backup of the other engine', () => {
  it('is refused with the way to move a box to PostgreSQL', async () => {
    const server = await startTestServer({ env: { DATABASE_URL: '' } });
    try {
      const { dir } = await createBackup({ copy: sqliteCopy('', sqliteOf(server.database)), dataDir: server.dataDir, backupDir: mkTemp(), keep: 1 });
      const target = postgresCopy(await postgres().createDatabase());
      await expect(restoreBackup({ from: dir, dataDir: mkTemp(), copy: target })).rejects.toThrow(
        /backup is of a sqlite database and the appliance is configured for postgres.*db:move-to-postgres/,
      );
    } finally {
      await server.close();
    }
  });
});
