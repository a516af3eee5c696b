// drizzle/ and drizzle-pg/ are written by `npm run db:generate` and `npm run db:generate:pg`
// from the schema files. A schema change committed without its migration passes every test that
// builds its tables from the schema, and ships a database that never gets the column: this test
// runs drizzle-kit generate on a copy of each folder (the repo's own are never written) and
// names the command to run when it writes anything.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import sqliteConfig from '../../drizzle.config.js';
import pgConfig from '../../drizzle.pg.config.js';

const root = join(import.meta.dirname, '../..');
const drizzleKit = join(root, 'node_modules/drizzle-kit/bin.cjs');

const configs = [
  { command: 'npm run db:generate', config: sqliteConfig },
  { command: 'npm run db:generate:pg', config: pgConfig },
];

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A throw-away copy of a migrations folder. */
function copyOf(out: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  copies.push(dir);
  cpSync(join(root, out), dir, { recursive: true });
  return dir;
}

/** Every file under `dir` with its text, by path inside it. */
function contents(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(files.map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), 'utf8')]));
}

/** Runs drizzle-kit generate for `config`'s dialect and schema into `dir`; the files it wrote or changed. */
async function generateInto(config: (typeof configs)[number]['config'], dir: string): Promise<string[]> {
  const before = contents(dir);
  // drizzle-kit prefixes --out with './': it takes only a path relative to where it runs.
  const args = ['generate', '--dialect', config.dialect, '--schema', String(config.schema), '--out', relative(root, dir)];
  // stdin closed: a schema change drizzle-kit would ask about (a rename?) fails instead of waiting.
  const run = promisify(execFile)(process.execPath, [drizzleKit, ...args], { cwd: root, timeout: 240_000 });
  run.child.stdin?.end();
  await run;
  const after = contents(dir);
  return [...after].filter(([path, text]) => before.get(path) !== text).map(([path]) => path);
}

/** Takes the newest migration out of a copy, as if its schema change had been made without it. */
function dropNewestMigration(dir: string): string {
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ idx: number; tag: string }> };
  const newest = journal.entries.pop()!;
  writeFileSync(journalPath, JSON.stringify(journal, null, 2));
  rmSync(join(dir, `${newest.tag}.sql`));
  rmSync(join(dir, 'meta', `${String(newest.idx).padStart(4, '0')}_snapshot.json`));
  return newest.tag;
}

describe.each(configs)('$config.out is what $command writes', ({ command, config }) => {
  it('generates nothing new from the schema', async () => {
    const written = await generateInto(config, copyOf(config.out!));
    expect(written, `${config.schema} has changes without a migration in ${config.out}: run ${command}`).toEqual([]);
  }, 300_000);

  it('would generate a migration if the newest one were missing', async () => {
    const dir = copyOf(config.out!);
    const dropped = dropNewestMigration(dir);
    const written = await generateInto(config, dir);
    expect(written.filter((p) => p.endsWith('.sql')), `dropped ${dropped}`).toHaveLength(1);
  }, 300_000);
});
