// Issue 39: pg_dump and pg_restore had DATABASE_URL, password and all, on their command line
// (any local user reads it in the process list), and a pg_dump killed before writing to stderr
// put that command line, URL included, in the backup's error. Here the PostgreSQL server checks
// passwords (scram-sha-256) as an operator's does, and the real tools run through a wrapper on
// PATH that records the arguments they were given.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresCopy, RestoreError } from '../../core/backup/database-copy.js';
import { usePostgres } from '../helpers/use-postgres.js';

const postgres = usePostgres({ passwordAuth: true });
const ROLE = 'backup_operator';
const PASSWORD = 'Plant3d-Pg-Pass';

let dir: string;
const originalPath = process.env.PATH;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-argv-'));
});
afterEach(() => {
  process.env.PATH = originalPath;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A folder whose pg_dump/pg_restore record their arguments and then do `then` (run the real tool, or die at once). */
function wrappers(name: string, then: 'run' | 'killed'): { argv: () => string } {
  const bin = path.join(dir, name);
  const log = path.join(dir, `${name}.argv`);
  fs.mkdirSync(bin);
  fs.writeFileSync(log, '');
  for (const tool of ['pg_dump', 'pg_restore']) {
    const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    const body = then === 'run' ? `exec ${real} "$@"` : 'kill -9 $$';
    fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\nprintf '%s\\n' ${tool} "$@" >> ${log}\n${body}\n`, { mode: 0o755 });
  }
  process.env.PATH = `${bin}:${originalPath}`;
  return { argv: () => fs.readFileSync(log, 'utf8') };
}

/** A database of the test server reached as the password-checked role. */
async function databaseWithPassword(migrated: boolean): Promise<string> {
  const u = new URL(await postgres().createDatabase({ migrated }));
  u.username = ROLE;
  u.password = PASSWORD;
  return u.toString();
}

describe('pg_dump and pg_restore', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await postgres().createRole(ROLE, PASSWORD);
  }, 180_000);

  it('sign in with the password from their environment: a backup and its restore work, and no argument holds the password', async () => {
    const tools = wrappers('recording', 'run');
    const dump = path.join(dir, 'appliance.pgdump');
    const counts = await postgresCopy(await databaseWithPassword(true)).snapshot(dump);
    expect(counts.users).toBe(0);
    expect(Object.keys(counts).length).toBeGreaterThan(10);
    const restored = await postgresCopy(await databaseWithPassword(false)).restore(dump, { force: false });
    expect(restored).toEqual(counts);

    const argv = tools.argv();
    expect(argv).toMatch(/^pg_dump$/m);
    expect(argv).toMatch(/^pg_restore$/m);
    expect(argv).toContain(`postgres://${ROLE}@127.0.0.1:${postgres().port}/`);
    expect(argv).not.toContain(PASSWORD);
  });

  it('killed before saying anything: the backup fails saying so, without the database’s URL', async () => {
    wrappers('killed', 'killed');
    const url = await databaseWithPassword(true);
    const failure = await postgresCopy(url).snapshot(path.join(dir, 'never.pgdump')).then(
      () => new Error('the backup did not fail'),
      (err: unknown) => err as Error,
    );
    expect(failure).toBeInstanceOf(RestoreError);
    expect(failure.message).toBe('pg_dump failed: it was stopped by SIGKILL before saying why');
  });
});
