// Several cores starting at once on one empty PostgreSQL database: each migrates under the
// advisory lock (core/db/pg/open-postgres.ts), so exactly one applies each migration and
// the others find the schema up to date; none fails.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { expect, it, vi } from 'vitest';
import { pgMigrationsFolder } from '../../core/db/pg/open-postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';

const server = usePostgres();

function startCore(url: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/db/open-postgres-child.ts', url], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, errors: () => err, exited };
}

it('three cores started at the same moment on an empty database all start, and each migration is applied once', async () => {
  const url = await server().createDatabase();
  const cores = [startCore(url), startCore(url), startCore(url)];
  const children: ChildProcess[] = cores.map((c) => c.child);
  try {
    await vi.waitFor(() => expect(cores.map((c) => c.output())).toEqual(['ready\n', 'ready\n', 'ready\n']), { timeout: 240_000, interval: 50 });
    for (const c of cores) c.child.stdin!.write('go\n');
    const codes = await Promise.all(cores.map((c) => c.exited));
    expect({ codes, errors: cores.map((c) => c.errors()) }).toEqual({ codes: [0, 0, 0], errors: ['', '', ''] });
    expect(cores.map((c) => c.output())).toEqual(['ready\nopened\n', 'ready\nopened\n', 'ready\nopened\n']);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  }

  const journal = JSON.parse(fs.readFileSync(path.join(pgMigrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const applied = await client.query<{ created_at: string; n: string }>(
      'select created_at::text, count(*)::text as n from drizzle.__drizzle_migrations group by created_at order by created_at',
    );
    expect(applied.rows).toEqual(journal.entries.map((e) => ({ created_at: String(e.when), n: '1' })));
    // The schema is there once, whole: a table from the first migration answers.
    expect((await client.query('select count(*)::int as n from calls')).rows).toEqual([{ n: 0 }]);
  } finally {
    await client.end();
  }
}, 420_000);
