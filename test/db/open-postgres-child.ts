// One "core" for test/db/migrate-lock.test.ts: loads everything first, says ready, and opens
// the database (migrating it) only when the test says go, so all of them open at once.
import readline from 'node:readline';
import { openPostgres } from '../../core/db/pg/open-postgres.js';

const url = process.argv[2]!;
const quiet = { info: () => {}, warn: () => {} };
const lines = readline.createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  if (line !== 'go') continue;
  const handle = await openPostgres(url, quiet);
  await handle.close();
  process.stdout.write('opened\n');
  break;
}
lines.close();
