// Cron work that must run once across cores (housekeeping, retention, backups) claims its
// period in the database: of several cores firing at the same moment, exactly one runs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { claimPeriod, periodOf } from '../../core/jobs/once-per-period.js';
import { usePostgres } from '../helpers/use-postgres.js';

const postgres = usePostgres();
const quiet = { info: () => {}, warn: () => {} };
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Three cores' connections to one database. */
const engines: { name: string; open(): Promise<DatabaseHandle[]> }[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'once-'));
      dirs.push(dir);
      return [1, 2, 3].map(() => openDatabase(path.join(dir, 'appliance.db')));
    },
  },
  {
    name: 'postgres',
    async open() {
      const url = await postgres().createDatabase({ migrated: true });
      return Promise.all([1, 2, 3].map(() => openAppDatabase({ kind: 'postgres', url }, quiet)));
    },
  },
];

describe.each(engines)('claiming a period on $name', (engine) => {
  it('of three cores claiming the same period at once, exactly one wins; the next period is claimed again once', async () => {
    const cores = await engine.open();
    try {
      const t = new Date('2026-11-25T03:15:00Z');
      for (let minute = 0; minute < 10; minute++) {
        const period = periodOf(new Date(t.getTime() + minute * 60_000), 60_000);
        const wins = await Promise.all(cores.flatMap((core) => [claimPeriod(core.db, 'backup', period, t), claimPeriod(core.db, 'backup', period, t)]));
        expect(wins.filter(Boolean)).toHaveLength(1);
      }
      // A core whose clock lags claims nothing behind the period already run; another task is its own.
      expect(await claimPeriod(cores[0]!.db, 'backup', periodOf(t, 60_000), t)).toBe(false);
      expect(await claimPeriod(cores[1]!.db, 'retention', periodOf(t, 60_000), t)).toBe(true);
    } finally {
      for (const core of cores) await core.close();
    }
  });
});

describe('periodOf', () => {
  it('puts every instant of a period on its start', () => {
    const every5 = 5 * 60_000;
    expect(periodOf(new Date('2026-11-25T10:03:59.999Z'), every5).toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(periodOf(new Date('2026-11-25T10:05:00.000Z'), every5).toISOString()).toBe('2026-11-25T10:05:00.000Z');
  });
});
