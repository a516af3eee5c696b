// Issue 38, item 2: the app's queries are type-checked once per engine (npm run typecheck runs
// tsconfig.json, SQLite's builders, and tsconfig.pg.json, PostgreSQL's), so code that uses what
// only one engine has does not compile. Seen here on planted files: each compiles under its own
// engine's check and fails under the other's.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

// better-sqlite3's synchronous-looking `.all()` exists on SQLite's builders only.
const SQLITE_ONLY = `import type { Db } from '../../../core/db/client.js';
import { tablesOf } from '../../../core/db/schema.js';
export const planted = (db: Db) => db.select().from(tablesOf(db).users).all();
`;

// Row locks (SELECT … FOR UPDATE) exist on PostgreSQL's builders only.
const PG_ONLY = `import type { Db } from '../../../core/db/client.js';
import { tablesOf } from '../../../core/db/schema.js';
export const planted = (db: Db) => db.select().from(tablesOf(db).users).for('update');
`;

// Written once, for both engines: what the app's own queries look like.
const BOTH = `import { eq } from 'drizzle-orm';
import type { Db } from '../../../core/db/client.js';
import { tablesOf } from '../../../core/db/schema.js';
export async function planted(db: Db, id: number): Promise<string | undefined> {
  const { users } = tablesOf(db);
  return (await db.select({ email: users.email }).from(users).where(eq(users.id, id)).limit(1))[0]?.email;
}
`;

/** The errors `source` gets under one of the project's type-check configurations. */
function errorsUnder(config: 'tsconfig.json' | 'tsconfig.pg.json', source: string): string[] {
  const dir = fs.mkdtempSync(path.join(ROOT, 'test/architecture/planted-'));
  const file = path.join(dir, 'planted.ts');
  fs.writeFileSync(file, source);
  try {
    const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, config), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
    if (!parsed) throw new Error(`${config} did not parse`);
    const program = ts.createProgram([file], parsed.options);
    return ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the dialects typed apart', () => {
  it('a query using a SQLite-only call compiles for SQLite and fails for PostgreSQL', () => {
    expect(errorsUnder('tsconfig.json', SQLITE_ONLY)).toEqual([]);
    const pg = errorsUnder('tsconfig.pg.json', SQLITE_ONLY);
    expect(pg).toHaveLength(1);
    expect(pg[0]).toMatch(/^TS2339: Property 'all' does not exist on type 'PgSelectBase</);
  }, 120_000);

  it('a query using a PostgreSQL-only call compiles for PostgreSQL and fails for SQLite', () => {
    expect(errorsUnder('tsconfig.pg.json', PG_ONLY)).toEqual([]);
    const sqlite = errorsUnder('tsconfig.json', PG_ONLY);
    expect(sqlite).toHaveLength(1);
    expect(sqlite[0]).toMatch(/^TS2339: Property 'for' does not exist on type 'SQLiteSelectBase</);
  }, 120_000);

  it('a query written once with tablesOf compiles for both', () => {
    expect(errorsUnder('tsconfig.json', BOTH)).toEqual([]);
    expect(errorsUnder('tsconfig.pg.json', BOTH)).toEqual([]);
  }, 120_000);

  it('npm run typecheck checks both', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.typecheck).toContain('tsc -p tsconfig.json --noEmit');
    expect(pkg.scripts.typecheck).toContain('tsc -p tsconfig.pg.json --noEmit');
  });
});
