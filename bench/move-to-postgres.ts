// How long `npm run db:move-to-postgres` takes for a busy appliance:
// `npx tsx bench/move-to-postgres.ts [calls]` (default 10,000), into a throw-away PostgreSQL 15
// (test/helpers/postgres.ts). Figures only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../core/db/client.js';
import { moveToPostgres } from '../core/db/pg/move.js';
import { fillAppliance } from '../test/db/appliance-data.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { machine, report } from './lib/report.js';

const calls = Number(process.argv[2] ?? 10_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-move-'));
const server = await startPostgres();
try {
  const file = path.join(dir, 'appliance.db');
  const handle = openDatabase(file);
  await fillAppliance(handle.db, { owners: 200, calls });
  await handle.close();
  const summary = await moveToPostgres(file, await server.createDatabase());
  const rows = summary.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`moved ${rows} rows (${calls} calls) in ${summary.ms} ms on ${machine()}`);
  report({ bench: 'move to PostgreSQL', measure: `${calls} calls, ${rows} rows in all, checked`, value: `${(summary.ms / 1000).toFixed(1)} s` });
} finally {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
