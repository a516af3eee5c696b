// The move of a stopped appliance's SQLite data into PostgreSQL (core/db/pg/move.ts): every
// table arrives whole and equal, new rows continue after the copied ids, the analytics
// counters are rebuilt equal, and a database that already holds data is refused untouched.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqliteDbOf } from '../../core/db/client.js';
import { MoveError, moveToPostgres } from '../../core/db/pg/move.js';
import { openPostgres } from '../../core/db/pg/open-postgres.js';
import * as pgSchema from '../../core/db/pg/schema.js';
import * as sqliteSchema from '../../core/db/sqlite/schema.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { fillAppliance } from './appliance-data.js';

const server = usePostgres();
const quiet = { info: () => {}, warn: () => {} };
let dir: string;
let file: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'move-to-pg-'));
  file = path.join(dir, 'appliance.db');
  const handle = openDatabase(file);
  await fillAppliance(handle.db, { owners: 25, calls: 3000 });
  await handle.close();
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function sqliteCounts(): Promise<Record<string, number>> {
  const handle = openDatabase(file);
  try {
    // Every table of the schema but the counters PostgreSQL's triggers rebuild and the rate-limit
    // windows only PostgreSQL writes: a table added later must be filled by fillAppliance and
    // copied, or this fails.
    const tables = (Object.values(sqliteSchema).filter((t) => is(t, SQLiteTable)) as SQLiteTable[])
      .map((t) => getTableConfig(t).name)
      .filter((name) => !['call_stats', 'call_hour_stats', 'rate_limits'].includes(name));
    return Object.fromEntries(tables.map((t) => [t, (handle.sqlite.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n]));
  } finally {
    await handle.close();
  }
}

describe('moving an appliance to PostgreSQL', () => {
  it('copies every table into an empty database: counts, rows and counters equal, ids continue', async () => {
    const url = await server().createDatabase();
    const summary = await moveToPostgres(file, url);
    const counts = await sqliteCounts();
    expect(Object.fromEntries(summary.tables.map((t) => [t.table, t.rows]))).toEqual(counts);
    expect(counts['calls']).toBe(3000);
    expect(Object.values(counts).every((n) => n > 0)).toBe(true);
    // Parents before children.
    const order = summary.tables.map((t) => t.table);
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('calls'));
    expect(order.indexOf('calls')).toBeLessThan(order.indexOf('notifications'));
    expect(summary.counters.map((c) => c.table).sort()).toEqual(['call_hour_stats', 'call_stats']);
    expect(summary.counters.every((c) => c.rows > 0)).toBe(true);
    expect(summary.sampled).toBeGreaterThan(300);

    const pg = await openPostgres(url, quiet);
    const sqlite = openDatabase(file);
    try {
      // Whole tables, read back through each engine's schema, are the same row objects.
      for (const [a, b] of [
        [sqliteSchema.calls, pgSchema.calls],
        [sqliteSchema.users, pgSchema.users],
        [sqliteSchema.callHandling, pgSchema.callHandling],
        [sqliteSchema.appSettings, pgSchema.appSettings],
        [sqliteSchema.auditLog, pgSchema.auditLog],
      ] as const) {
        const left = await sqliteDbOf(sqlite).select().from(a as typeof sqliteSchema.calls);
        const right = await pg.db.select().from(b as typeof pgSchema.calls);
        expect(right.length).toBe(left.length);
        expect(new Set(right.map((r) => JSON.stringify(r, Object.keys(r).sort())))).toEqual(new Set(left.map((r) => JSON.stringify(r, Object.keys(r).sort()))));
      }
      const voicemail = (await pg.db.select().from(pgSchema.calls).where(eq(pgSchema.calls.status, 'voicemail')).limit(1))[0]!;
      expect(voicemail.recordingFile).toMatch(/^2025\/call-\d+\.wav$/);
      // New rows take ids after the copied ones (the identity sequences were moved on).
      const [added] = await pg.db
        .insert(pgSchema.calls)
        .values({ userId: voicemail.userId, fromNumber: '+447700900001', toNumber: '+441134961000' })
        .returning({ id: pgSchema.calls.id });
      expect(added!.id).toBe(3001);
    } finally {
      await sqlite.close();
      await pg.close();
    }
  }, 180_000);

  it('refuses a database that holds any row, and leaves it as it was', async () => {
    const url = await server().createDatabase({ migrated: true });
    const pg = await openPostgres(url, quiet);
    try {
      await pg.db.insert(pgSchema.appSettings).values({ key: 'motd', value: 'already here', updatedAt: new Date() });
      const err = await moveToPostgres(file, url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MoveError);
      expect((err as Error).message).toBe(
        'the PostgreSQL database is not empty (table app_settings has 1 row): the move writes only into an empty database; create a new one (e.g. createdb appliance) and run it again',
      );
      expect(await pg.db.select().from(pgSchema.users)).toEqual([]);
      expect((await pg.db.select().from(pgSchema.appSettings)).map((s) => s.value)).toEqual(['already here']);
    } finally {
      await pg.close();
    }
  }, 60_000);

  it('as the npm command: says why it refuses and exits non-zero', async () => {
    const url = await server().createDatabase({ migrated: true });
    const pg = await openPostgres(url, quiet);
    await pg.db.insert(pgSchema.appSettings).values({ key: 'motd', value: 'already here', updatedAt: new Date() });
    await pg.close();
    // The URL comes from DATABASE_URL, never from the command line (issue 39).
    const { code, out } = await moveCommand([file], { DATABASE_URL: url });
    expect({ code, out }).toEqual({
      code: 1,
      out: 'Move refused: the PostgreSQL database is not empty (table app_settings has 1 row): the move writes only into an empty database; create a new one (e.g. createdb appliance) and run it again',
    });
  }, 180_000);

  it('as the npm command: refuses a URL on its command line, where the process list would show its password, without printing it', async () => {
    const url = 'postgres://appliance:Plant3d-Move-Pass@127.0.0.1:1/appliance';
    const onCommandLine = await moveCommand([file, url], {});
    expect(onCommandLine.code).toBe(1);
    expect(onCommandLine.out).toMatch(/^Move refused: the PostgreSQL URL is not taken on the command line .*set DATABASE_URL, or leave it unset to be asked\. Usage: /);
    expect(onCommandLine.out).not.toContain('Plant3d-Move-Pass');
    // Not a terminal and no DATABASE_URL: says how to give it.
    const missing = await moveCommand([file], {});
    expect(missing).toEqual({ code: 1, out: expect.stringMatching(/^Move refused: DATABASE_URL is not set\. Usage: npm run db:move-to-postgres -- <sqlite file/) });
    const notPostgres = await moveCommand([file], { DATABASE_URL: 'mysql://appliance:Plant3d-Move-Pass@db/appliance' });
    expect(notPostgres.code).toBe(1);
    expect(notPostgres.out).toMatch(/^Move refused: DATABASE_URL must be a PostgreSQL URL starting postgres:\/\//);
    expect(notPostgres.out).not.toContain('Plant3d-Move-Pass');
  }, 180_000);
});

/** `npm run db:move-to-postgres -- <args>` as an operator runs it (stdin not a terminal), with only `env` set. */
async function moveCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/db/pg/move-cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out: out.trim() };
}
