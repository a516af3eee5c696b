import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The data-access layer (core/db) is the only place that may run a query synchronously, reach
 * the raw connection or open a transaction: everything else awaits drizzle queries and uses
 * core/db/transaction.ts, so the same code runs on SQLite and PostgreSQL (issue 25). A builder
 * call only one engine has no longer compiles (npm run typecheck checks both dialects,
 * test/architecture/dialect-types.test.ts); what the compiler cannot see is kept here: a
 * transaction or a raw connection opened outside core/db, both available on either engine.
 * A heuristic over the source text, honest about its allow-list:
 * - `.all()`, `.get()`, `.run()`, `.values()` with no arguments, or with an object or `sql`
 *   argument on a line that mentions a query builder or prepared statement;
 * - `.prepare(` on anything but a drizzle builder chain (`.prepare()` with no arguments is
 *   drizzle's own prepared statement, executed with `await stmt.execute({...})`);
 * - `.transaction(`.
 */
const ROOTS = ['core', 'pbx', 'dialogue', 'models'];
const ALLOWED = [/^core\/db\//, /^core\/backup\//, /\.test\.ts$/];

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith('.ts')) yield p;
  }
}

const RULES: [RegExp, string][] = [
  // On a builder chain (after a closing bracket or at the start of a continued line): Maps'
  // .values() and a cleanup's .run() are not queries.
  [/(\)|^\s*)\.(all|get|run|values)\(\s*\)/, 'synchronous drizzle call'],
  [/\b(stmts?|statements\([^)]*\)\.\w+|first|next|sqlite|db|tx)\.(all|get|run|values)\(/, 'synchronous statement call'],
  [/\.prepare\(\s*[`'"]/, 'raw .prepare() on the connection'],
  [/\.transaction\(/, 'transaction outside core/db/transaction.ts'],
  [/\.\$client\b/, 'raw connection'],
  [/\b(database|handle)\.sqlite\b|\bsqlite\.prepare\(/, 'raw connection'],
];

describe('the async data-access layer', () => {
  it('is not bypassed outside core/db (and the SQLite-only backup module)', () => {
    const offences: string[] = [];
    for (const root of ROOTS) {
      for (const file of sources(root)) {
        const rel = file.split(path.sep).join('/');
        if (ALLOWED.some((a) => a.test(rel))) continue;
        fs.readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const code = line.replace(/\/\/.*$/, '');
            for (const [rule, what] of RULES) if (rule.test(code)) offences.push(`${rel}:${i + 1}: ${what}: ${line.trim()}`);
          });
      }
    }
    expect(offences).toEqual([]);
  });

  it('catches a synchronous call (the check itself can fail)', () => {
    const sample = "const row = db.select().from(users).get();\nconst x = sqlite.prepare('select 1');\ndb.transaction(() => 1);";
    const hits = sample.split('\n').filter((l) => RULES.some(([r]) => r.test(l)));
    expect(hits).toHaveLength(3);
  });
});
