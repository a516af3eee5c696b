// npm run db:move-to-postgres -- <sqlite-file> <postgres-url>: copies a stopped appliance's
// data into an empty PostgreSQL database (core/db/pg/move.ts; the order of steps is in
// docs/postgres.md).
import { MoveError, moveToPostgres } from './move.js';

async function run(): Promise<void> {
  const [file, url] = process.argv.slice(2);
  if (!file || !url || !/^postgres(ql)?:\/\//.test(url)) {
    throw new MoveError('Usage: npm run db:move-to-postgres -- <sqlite file, e.g. data/appliance.db> <postgres://user:password@host:5432/database>');
  }
  const summary = await moveToPostgres(file, url, { progress: (line) => console.log(line) });
  const rows = summary.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `Moved ${rows} rows in ${summary.tables.length} tables in ${(summary.ms / 1000).toFixed(1)} s: counts equal, ${summary.sampled} sampled rows equal, ` +
      `analytics counters rebuilt and equal. Set DATABASE_URL and start the appliance.`,
  );
}

run().catch((err) => {
  console.error(err instanceof MoveError ? `Move refused: ${err.message}` : err);
  process.exit(1);
});
