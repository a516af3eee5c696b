// The busy-wait cap of the call path (withBusyWaitAtMost) on every statement its task runs: in
// force while the statement runs, the connection's own timeout back after it (whatever it has
// been changed to), and without compiling statements again for each one (issue 47: three
// pragma() compilations a statement were 2.8 ms of the core's CPU per call).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, withBusyWaitAtMost, type DatabaseHandle } from './client.js';
import { queryRow } from './raw.js';

describe('the busy-wait cap on a task’s statements', () => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
  });

  it('holds while each statement runs, restores the connection’s own timeout, and compiles nothing per statement', async () => {
    handle = openDatabase(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'busy-cap-')), 'appliance.db'));
    if (handle.dialect !== 'sqlite') throw new Error('a SQLite database was opened');
    const { db, sqlite } = handle;
    const seen = () => queryRow<{ timeout: number }>(db, sql`pragma busy_timeout`);
    expect(await withBusyWaitAtMost(db, 25, seen)).toEqual({ timeout: 25 });
    expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);

    // An operator (or a test) changes the connection's own timeout: that is what comes back.
    sqlite.pragma('busy_timeout = 7000');
    const prepare = vi.spyOn(sqlite, 'prepare');
    const pragma = vi.spyOn(sqlite, 'pragma');
    for (let i = 0; i < 20; i++) expect(await withBusyWaitAtMost(db, 25, seen)).toEqual({ timeout: 25 });
    expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(7000);
    // The cap's own pragmas are compiled once (7000 is new), never once per statement.
    expect(prepare.mock.calls.length).toBeLessThanOrEqual(1);
    expect(pragma).toHaveBeenCalledTimes(1); // the read just above, by this test
  });
});
