import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, pruneBackups, restoreBackup, RestoreError, sha256File, tableCounts } from '../../core/backup/backup.js';
import { openDatabase } from '../../core/db/client.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
const temp: string[] = [];
const mkTemp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  temp.push(d);
  return d;
};

beforeAll(async () => {
  server = await startTestServer();
  const { user } = await activeCustomer(server);
  const rec = path.join(server.dataDir, 'recordings');
  fs.mkdirSync(rec, { recursive: true });
  const insert = server.database.sqlite.prepare(
    "insert into calls (user_id, from_number, to_number, status, duration, recording_file) values (?, '+447700900111', '+447700900001', 'voicemail', 12, ?)",
  );
  for (let i = 1; i <= 5; i++) {
    const file = `call-test-${i}.wav`;
    // Real audio: sox's synth, so hashes cover genuine WAV bytes.
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-b', '16', path.join(rec, file), 'synth', String(0.2 * i), 'sine', String(300 + i * 50)]);
    insert.run(user.id, file);
  }
});
afterAll(async () => {
  await server.close();
  for (const d of temp) fs.rmSync(d, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('brings a fresh box back to the same rows and the same recording bytes', async () => {
    const backupDir = mkTemp();
    const { dir, manifest } = await createBackup({ sqlite: server.database.sqlite, dataDir: server.dataDir, backupDir, keep: 3 });
    expect(manifest.recordings).toHaveLength(5);
    expect(manifest.rows.calls).toBe(5);

    const freshDataDir = mkTemp();
    await restoreBackup({ from: dir, dataDir: freshDataDir });
    const restored = openDatabase(path.join(freshDataDir, 'appliance.db'));
    try {
      expect(tableCounts(restored.sqlite)).toEqual(tableCounts(server.database.sqlite));
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
    const first = await createBackup({ sqlite: server.database.sqlite, dataDir: server.dataDir, backupDir, keep: 2, now: new Date('2026-11-01T02:30:00Z') });
    const second = await createBackup({ sqlite: server.database.sqlite, dataDir: server.dataDir, backupDir, keep: 2, now: new Date('2026-11-02T02:30:00Z') });
    const file = first.manifest.recordings[0]!.file;
    const a = fs.statSync(path.join(first.dir, 'recordings', file));
    const b = fs.statSync(path.join(second.dir, 'recordings', file));
    expect(b.ino).toBe(a.ino);
    await createBackup({ sqlite: server.database.sqlite, dataDir: server.dataDir, backupDir, keep: 2, now: new Date('2026-11-03T02:30:00Z') });
    expect(fs.readdirSync(backupDir).sort()).toEqual(['2026-11-02T02-30-00-000Z', '2026-11-03T02-30-00-000Z']);
    expect(await pruneBackups(backupDir, 1)).toEqual(['2026-11-02T02-30-00-000Z']);
  });

  it('refuses a damaged backup and never overwrites a live database without --force', async () => {
    const backupDir = mkTemp();
    const { dir, manifest } = await createBackup({ sqlite: server.database.sqlite, dataDir: server.dataDir, backupDir, keep: 3 });
    await expect(restoreBackup({ from: dir, dataDir: server.dataDir })).rejects.toThrow(/already exists.*--force/);

    const rec = path.join(dir, 'recordings', manifest.recordings[0]!.file);
    fs.unlinkSync(rec); // break the hard link before damaging the copy
    fs.writeFileSync(rec, 'not audio');
    const fresh = mkTemp();
    await expect(restoreBackup({ from: dir, dataDir: fresh })).rejects.toBeInstanceOf(RestoreError);
    expect(fs.existsSync(path.join(fresh, 'appliance.db'))).toBe(false);
  });

  it('ignores an interrupted backup (no manifest)', async () => {
    const backupDir = mkTemp();
    fs.mkdirSync(path.join(backupDir, '2026-01-01T00-00-00-000Z.partial'), { recursive: true });
    await expect(restoreBackup({ from: path.join(backupDir, '2026-01-01T00-00-00-000Z.partial'), dataDir: mkTemp() })).rejects.toThrow(/not a complete backup/);
  });
});

describe('the operator commands', () => {
  it('`backup` then `restore` on a fresh DATA_DIR reproduce the rows, as the README documents', async () => {
    const backupDir = mkTemp();
    const cli = (args: string[], dataDir: string) =>
      execFileSync(process.execPath, ['--import', 'tsx', 'core/backup/cli.ts', ...args], {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, BACKUP_DIR: backupDir },
        encoding: 'utf8',
      });
    expect(cli(['backup'], server.dataDir)).toMatch(/Backup written to .*: 5 recordings/);
    const [name] = fs.readdirSync(backupDir);
    const fresh = mkTemp();
    expect(cli(['restore', path.join(backupDir, name!)], fresh)).toMatch(/Restored .*5 recordings/);
    const restored = openDatabase(path.join(fresh, 'appliance.db'));
    try {
      expect(tableCounts(restored.sqlite).calls).toBe(5);
    } finally {
      await restored.close();
    }
  });
});
