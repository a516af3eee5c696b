import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import type pg from 'pg';
import type { DatabaseSetting } from '../db/setting.js';

const run = promisify(execFile);

export class RestoreError extends Error {}

/**
 * One engine's half of a backup: a consistent copy of the database into one file, and that
 * file brought back. Both report the row counts of the copy itself, so a restore is checked
 * against what was copied, not against a box that kept taking calls meanwhile.
 */
export interface DatabaseCopy {
  readonly engine: 'sqlite' | 'postgres';
  /** The copy's file name inside a backup folder. */
  readonly file: string;
  snapshot(dest: string): Promise<Record<string, number>>;
  /** Refuses a target that already holds data unless `force`. */
  restore(from: string, opts: { force: boolean }): Promise<Record<string, number>>;
}

export function databaseCopy(setting: DatabaseSetting, live?: Database.Database): DatabaseCopy {
  return setting.kind === 'sqlite' ? sqliteCopy(setting.file, live) : postgresCopy(setting.url);
}

function tableCounts(sqlite: Database.Database): Record<string, number> {
  const tables = sqlite
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name")
    .all() as { name: string }[];
  return Object.fromEntries(tables.map(({ name }) => [name, (sqlite.prepare(`select count(*) n from "${name}"`).get() as { n: number }).n]));
}

function countsOfFile(file: string): Record<string, number> {
  const copy = new Database(file, { readonly: true });
  try {
    return tableCounts(copy);
  } finally {
    copy.close();
  }
}

const exists = (file: string) => fs.stat(file).then(() => true, () => false);

/** SQLite: the online backup API copies a consistent snapshot while calls keep being written. */
export function sqliteCopy(dbFile: string, live?: Database.Database): DatabaseCopy {
  return {
    engine: 'sqlite',
    file: 'appliance.db',
    async snapshot(dest) {
      const source = live ?? new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        await source.backup(dest);
      } finally {
        if (!live) source.close();
      }
      return countsOfFile(dest);
    },
    async restore(from, { force }) {
      if (!force && (await exists(dbFile))) throw new RestoreError(`${dbFile} already exists; stop the appliance and pass --force to replace it`);
      // The old WAL/SHM files belong to the database being replaced.
      for (const ext of ['-wal', '-shm']) await fs.rm(`${dbFile}${ext}`, { force: true });
      await fs.copyFile(from, `${dbFile}.restoring`);
      await fs.rename(`${dbFile}.restoring`, dbFile);
      return countsOfFile(dbFile);
    },
  };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  // The driver is loaded on a PostgreSQL box's first copy, not by every SQLite box at start.
  const { Client } = (await import('pg')).default;
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function pgCounts(client: pg.Client): Promise<Record<string, number>> {
  const { rows } = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const counts: Record<string, number> = {};
  for (const { name } of rows) counts[name] = Number((await client.query<{ n: string }>(`select count(*) as n from "${name}"`)).rows[0]!.n);
  return counts;
}

/**
 * How pg_dump/pg_restore reach the database without its password on their command line, where
 * any local user reads it in the process list (and an error quoting the command would repeat
 * it): the URL goes in `--dbname` without its password, which travels in the child's
 * environment as PGPASSWORD (libpq reads it; https://www.postgresql.org/docs/15/libpq-envars.html).
 * A `password` query parameter is moved there too.
 */
function pgToolConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = u.password ? decodeURIComponent(u.password) : (u.searchParams.get('password') ?? undefined);
  u.password = '';
  u.searchParams.delete('password');
  return { dbname: u.toString(), env: password === undefined ? { ...process.env } : { ...process.env, PGPASSWORD: password } };
}

/** pg_dump/pg_restore from PATH (Debian's postgresql-client; the core image carries it). */
async function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const { dbname, env } = pgToolConnection(url);
  try {
    await run(tool, [...args, '--dbname', dbname], { maxBuffer: 16 * 1024 * 1024, env });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string; signal?: string | null; code?: unknown };
    if (e.code === 'ENOENT') throw new RestoreError(`${tool} is not installed: install postgresql-client (the same major version as the server or newer)`);
    // Never e.message: it is "Command failed: <the whole command line>", the database's address with it.
    const why = e.stderr?.trim() || (e.signal ? `it was stopped by ${e.signal} before saying why` : `it exited with code ${String(e.code)} without saying why`);
    throw new RestoreError(`${tool} failed: ${why}`);
  }
}

/**
 * PostgreSQL: pg_dump in its custom format, run inside a snapshot this connection exports,
 * so the counts in the manifest are those of the very rows dumped.
 */
export function postgresCopy(url: string): DatabaseCopy {
  return {
    engine: 'postgres',
    file: 'appliance.pgdump',
    snapshot: (dest) =>
      withClient(url, async (client) => {
        await client.query('begin isolation level repeatable read read only');
        try {
          const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]!.id;
          const counts = await pgCounts(client);
          await pgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`, '--file', dest], url);
          return counts;
        } finally {
          await client.query('commit');
        }
      }),
    async restore(from, { force }) {
      const existing = await withClient(url, pgCounts);
      if (!force && Object.keys(existing).length > 0) {
        throw new RestoreError('the database DATABASE_URL names already holds the appliance\'s tables; stop the appliance and pass --force to replace them');
      }
      await pgTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', ...(force ? ['--clean', '--if-exists'] : []), from], url);
      return withClient(url, pgCounts);
    },
  };
}
