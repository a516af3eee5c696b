import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import type { usePostgres } from '../helpers/use-postgres.js';
import { quiet } from './fixtures.js';

export interface TwoCoreEngine {
  name: string;
  open(): Promise<DatabaseHandle[]>;
}

/**
 * Two cores' connections to one database, per engine: SQLite is one process's file, so its
 * "two cores" are two callers on one connection; PostgreSQL's are two pools. Called at a test
 * file's top level (it removes its SQLite folders after the file).
 */
export function twoCoreEngines(postgres: ReturnType<typeof usePostgres>, prefix: string): TwoCoreEngine[] {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return [
    {
      name: 'sqlite',
      async open() {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
        dirs.push(dir);
        const one = openDatabase(path.join(dir, 'appliance.db'));
        let closed = false;
        const handle = { ...one, close: async () => { if (!closed) { closed = true; await one.close(); } } } as DatabaseHandle;
        return [handle, handle];
      },
    },
    {
      name: 'postgres',
      async open() {
        const url = await postgres().createDatabase({ migrated: true });
        return Promise.all([1, 2].map(() => openAppDatabase({ kind: 'postgres', url }, quiet)));
      },
    },
  ];
}
