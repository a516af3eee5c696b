// A periodic pass meeting another process's write lock (a backup, an operator's sqlite3 shell)
// must give the core's one thread back instead of sleeping on it for the busy timeout. Here the
// holder lets the lock go by itself after a minute, well inside the connection's own busy
// timeout: a pass that waited for the lock would succeed then instead of being refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { startLockHolder, type LockHolder } from '../../test/helpers/lock-holder.js';
import { backgroundPass } from './background-pass.js';
import { isDatabaseBusy, openDatabase, type DatabaseHandle } from './client.js';
import { execute, queryRow } from './raw.js';

const TEN_MINUTES_MS = 600_000;
const HOLDER_RELEASES_AFTER_MS = 60_000;

describe('a background pass while another process holds the database', { timeout: 120_000 }, () => {
  let handle: DatabaseHandle | undefined;
  let holder: LockHolder | undefined;
  afterEach(async () => {
    holder?.stop();
    await handle?.close();
  });

  it('is refused at once while the lock is held, leaves the connection as it was, and does its work on its next run', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'background-pass-'));
    const file = path.join(dir, 'appliance.db');
    handle = openDatabase(file);
    if (handle.dialect !== 'sqlite') throw new Error('a SQLite database was opened');
    handle.sqlite.pragma(`busy_timeout = ${TEN_MINUTES_MS}`);
    const db = handle.db;
    await execute(db, sql`create table passes (n integer not null)`);
    const pass = backgroundPass(async (n: number) => await execute(db, sql`insert into passes (n) values (${n})`));

    holder = await startLockHolder(file);
    await holder.lock(HOLDER_RELEASES_AFTER_MS);
    const refused = await pass(1).then(() => undefined, (err: unknown) => err);
    expect(isDatabaseBusy(refused)).toBe(true);
    // The connection's own wait is untouched for everything else it runs.
    expect(handle.sqlite.pragma('busy_timeout', { simple: true })).toBe(TEN_MINUTES_MS);
    await holder.unlock();

    await pass(2);
    expect(await queryRow(db, sql`select group_concat(n) as ns from passes`)).toEqual({ ns: '2' });
  });
});
