import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { asc, getTableColumns, gt, inArray, is, sql, type Column } from 'drizzle-orm';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle as pgDrizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, type SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { projectRoot } from '../../config/paths.js';
import * as sqliteSchema from '../sqlite/schema.js';
import { openPostgres } from './open-postgres.js';
import * as pgSchema from './schema.js';

// Moves an appliance's data from its SQLite file into an empty PostgreSQL database
// (npm run db:move-to-postgres; docs/postgres.md). Every table is copied in foreign-key
// order, in batches, inside one PostgreSQL transaction: a move that fails half-way leaves the
// database as empty as it found it. The analytics counters are not copied: PostgreSQL's
// triggers rebuild them as the calls arrive, and they are then checked against SQLite's.
// Row objects are the same on both sides (test/db/schema-parity.test.ts), so a row read
// through one schema is written through the other unchanged.

export class MoveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoveError';
  }
}

export interface MoveSummary {
  /** Rows copied per table, in the order copied. */
  tables: { table: string; rows: number }[];
  /** Counter tables rebuilt by PostgreSQL's triggers and found equal to SQLite's. */
  counters: { table: string; rows: number }[];
  /** Rows compared field by field on both sides after the copy. */
  sampled: number;
  ms: number;
}

export interface MoveOptions {
  /** Rows compared field by field per table (first, last and spread between); default 50. */
  samplePerTable?: number;
  /** Progress lines for the operator. */
  progress?: (line: string) => void;
}

/** Kept by triggers on calls in both engines (scripts/db-schema/counter-triggers.ts, drizzle-pg/0001): rebuilt, not copied. */
const COUNTER_TABLES = new Set(['call_stats', 'call_hour_stats']);
/** Not moved: rate-limit windows of a few minutes, which only a core on PostgreSQL writes (core/http/shared-rate-limit-store.ts). */
const NOT_MOVED = new Set(['rate_limits']);
/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 60_000;

interface TablePair {
  name: string;
  sqlite: SQLiteTable;
  pg: PgTable;
  /** The JS key of the single-column primary key the copy pages by. */
  key: string;
  identity: boolean;
}

function tablePairs(): TablePair[] {
  const pgByName = new Map((Object.values(pgSchema).filter((t) => is(t, PgTable)) as PgTable[]).map((t) => [pgConfig(t).name, t]));
  const pairs: TablePair[] = [];
  for (const t of Object.values(sqliteSchema).filter((v) => is(v, SQLiteTable)) as SQLiteTable[]) {
    const cfg = sqliteConfig(t);
    if (NOT_MOVED.has(cfg.name)) continue;
    const pg = pgByName.get(cfg.name);
    if (!pg) throw new MoveError(`table ${cfg.name} has no PostgreSQL twin in core/db/pg/schema.ts`);
    const columns = getTableColumns(t) as Record<string, Column>;
    const pk = Object.entries(columns).filter(([, c]) => c.primary);
    if (!COUNTER_TABLES.has(cfg.name) && pk.length !== 1) throw new MoveError(`table ${cfg.name} has no single-column primary key to copy it by`);
    const identity = Object.values(getTableColumns(pg) as Record<string, Column>).some((c) => (c as unknown as { generatedIdentity?: unknown }).generatedIdentity);
    pairs.push({ name: cfg.name, sqlite: t, pg, key: pk[0]?.[0] ?? '', identity });
  }
  return pairs;
}

/** Parents before children: each table after every table its foreign keys point to. */
function foreignKeyOrder(pairs: TablePair[]): TablePair[] {
  const byName = new Map(pairs.map((p) => [p.name, p]));
  const done = new Set<string>();
  const ordered: TablePair[] = [];
  const visit = (p: TablePair, path: string[]) => {
    if (done.has(p.name)) return;
    if (path.includes(p.name)) throw new MoveError(`foreign keys form a cycle: ${[...path, p.name].join(' → ')}`);
    for (const fk of sqliteConfig(p.sqlite).foreignKeys) {
      const parent = sqliteConfig(fk.reference().foreignTable as SQLiteTable).name;
      if (parent !== p.name) visit(byName.get(parent)!, [...path, p.name]);
    }
    done.add(p.name);
    ordered.push(p);
  };
  for (const p of pairs) visit(p, []);
  return ordered;
}

/** A row as text that compares equal across engines: keys sorted (jsonb reorders them), dates as ISO. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (x && typeof x === 'object' && !Array.isArray(x) && !(x instanceof Date)) {
      return Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
    }
    return x;
  });
}

/** The drizzle migrations the SQLite file has had, against the ones this version ships. */
function checkSqliteIsCurrent(sqlite: Database.Database): void {
  const journal = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  let applied = 0;
  try {
    applied = (sqlite.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n;
  } catch {
    throw new MoveError('the SQLite file is not an appliance database (it has no migrations table)');
  }
  if (applied !== journal.entries.length) {
    throw new MoveError(
      `the SQLite file has ${applied} of this version's ${journal.entries.length} migrations: start the appliance once on this version ` +
        '(it brings the file up to date), stop it, then run the move again',
    );
  }
}

/**
 * Copies every table of a stopped appliance's SQLite file into an empty, PostgreSQL database
 * (migrated here if it is not yet), checks counts and a sample of rows, and commits; or
 * changes nothing and throws a MoveError saying why.
 */
export async function moveToPostgres(sqliteFile: string, url: string, opts: MoveOptions = {}): Promise<MoveSummary> {
  const started = Date.now();
  const say = opts.progress ?? (() => {});
  if (!fs.existsSync(sqliteFile)) throw new MoveError(`no SQLite file at ${sqliteFile} (the appliance keeps it at $DATA_DIR/appliance.db)`);
  const sqlite = new Database(sqliteFile, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 0');
    checkSqliteIsCurrent(sqlite);
    // Held for the whole copy: a box someone forgot to stop cannot change what is being
    // copied (its writes wait), and the copy is one consistent snapshot.
    try {
      sqlite.exec('BEGIN IMMEDIATE');
    } catch {
      throw new MoveError('the SQLite file is in use (the appliance is writing to it): stop the appliance first');
    }
    const from = sqliteDrizzle(sqlite, { schema: sqliteSchema });
    const handle = await openPostgres(url, { info: () => {}, warn: (o, m) => say(`${m} ${JSON.stringify(o)}`) });
    const client = await handle.pool.connect();
    try {
      const to = pgDrizzle(client, { schema: pgSchema });
      await client.query('begin');
      const pairs = foreignKeyOrder(tablePairs());
      for (const p of pairs) {
        const [{ n }] = (await to.select({ n: sql<number>`count(*)` }).from(p.pg)) as [{ n: number }];
        if (n > 0) {
          throw new MoveError(
            `the PostgreSQL database is not empty (table ${p.name} has ${n} ${n === 1 ? 'row' : 'rows'}): the move writes only into an empty database; create a new one (e.g. createdb appliance) and run it again`,
          );
        }
      }

      const tables: MoveSummary['tables'] = [];
      let sampled = 0;
      for (const p of pairs.filter((t) => !COUNTER_TABLES.has(t.name))) {
        const columns = getTableColumns(p.sqlite) as Record<string, Column>;
        const keyColumn = columns[p.key]!;
        const batch = Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(columns).length));
        let copied = 0;
        let last: unknown;
        for (;;) {
          const rows = (await from
            .select()
            .from(p.sqlite)
            .where(last === undefined ? undefined : gt(keyColumn, last))
            .orderBy(asc(keyColumn))
            .limit(batch)) as Record<string, unknown>[];
          if (rows.length === 0) break;
          await to.insert(p.pg).values(rows);
          copied += rows.length;
          last = rows[rows.length - 1]![p.key];
          if (rows.length < batch) break;
        }
        if (p.identity) {
          // Explicit ids leave the identity sequence at 1: new rows continue after the copied ones.
          await client.query(`select setval(pg_get_serial_sequence($1, 'id'), coalesce((select max(id) from "${p.name}"), 0) + 1, false)`, [`"${p.name}"`]);
        }
        const [{ n }] = (await to.select({ n: sql<number>`count(*)` }).from(p.pg)) as [{ n: number }];
        if (n !== copied) throw new MoveError(`table ${p.name}: ${copied} rows read from SQLite but ${n} in PostgreSQL`);
        sampled += await compareSample(p, from, to, copied, opts.samplePerTable ?? 50);
        tables.push({ table: p.name, rows: copied });
        say(`${p.name}: ${copied} rows`);
      }

      const counters: MoveSummary['counters'] = [];
      for (const p of pairs.filter((t) => COUNTER_TABLES.has(t.name))) {
        const rows = await compareCounters(p, from, to);
        counters.push({ table: p.name, rows });
        say(`${p.name}: ${rows} counter rows rebuilt and equal`);
      }
      await client.query('commit');
      // Every copied call updated its counter rows inside that one transaction, leaving as
      // many dead row versions as calls for autovacuum to find later; until it does, the
      // analytics read through them (~50 ms at 100,000 calls for a business). Done now, and
      // the planner's statistics with it.
      say('vacuuming and analysing the copied tables');
      await client.query('vacuum analyze');
      return { tables, counters, sampled, ms: Date.now() - started };
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
      await handle.close();
    }
  } finally {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    sqlite.close();
  }
}

type SqliteSide = ReturnType<typeof sqliteDrizzle<typeof sqliteSchema>>;
type PgSide = NodePgDatabase<typeof pgSchema>;

/** The first, the last and rows spread evenly between, read back from both sides and compared whole. */
async function compareSample(p: TablePair, from: SqliteSide, to: PgSide, count: number, size: number): Promise<number> {
  if (count === 0) return 0;
  const sqliteKey = (getTableColumns(p.sqlite) as Record<string, Column>)[p.key]!;
  const pgKey = (getTableColumns(p.pg) as Record<string, Column>)[p.key]!;
  const keys = (await from.select({ k: sqliteKey as SQLiteColumn }).from(p.sqlite).orderBy(asc(sqliteKey))).map((r) => r.k);
  const step = Math.max(1, (keys.length - 1) / Math.max(1, size - 1));
  const picked = [...new Set(Array.from({ length: Math.min(size, keys.length) }, (_, i) => keys[Math.round(i * step)]).concat(keys[keys.length - 1]))];
  const left = (await from.select().from(p.sqlite).where(inArray(sqliteKey, picked))) as Record<string, unknown>[];
  const right = (await to.select().from(p.pg).where(inArray(pgKey, picked))) as Record<string, unknown>[];
  const byKey = new Map(right.map((r) => [r[p.key], canonical(r)]));
  for (const row of left) {
    if (byKey.get(row[p.key]) !== canonical(row)) {
      throw new MoveError(`table ${p.name}: the row with ${p.key} ${String(row[p.key])} differs after the copy`);
    }
  }
  return left.length;
}

/** The counters PostgreSQL's triggers built from the copied calls, against SQLite's (rows that are all zero aside). */
async function compareCounters(p: TablePair, from: SqliteSide, to: PgSide): Promise<number> {
  const nonZero = (rows: Record<string, unknown>[]) =>
    rows
      .filter((r) => Object.entries(r).some(([k, v]) => !['userId', 'day', 'hour'].includes(k) && v !== 0))
      .map(canonical)
      .sort();
  const left = nonZero((await from.select().from(p.sqlite)) as Record<string, unknown>[]);
  const right = nonZero((await to.select().from(p.pg)) as Record<string, unknown>[]);
  if (left.length !== right.length || left.some((r, i) => r !== right[i])) {
    const missing = left.find((r) => !right.includes(r)) ?? right.find((r) => !left.includes(r));
    throw new MoveError(`${p.name}: the counters rebuilt in PostgreSQL differ from SQLite's (first difference: ${missing})`);
  }
  return left.length;
}
