// npm run db:move-to-postgres -- <sqlite-file>: copies a stopped appliance's data into an
// empty PostgreSQL database (core/db/pg/move.ts; the order of steps is in docs/postgres.md).
// The PostgreSQL URL comes from DATABASE_URL or is asked for, never from the command line:
// there its password would sit in the process list and the shell's history.
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { printableError } from '../../logging/safe-errors.js';
import { MoveError, moveToPostgres } from './move.js';

const USAGE =
  'Usage: npm run db:move-to-postgres -- <sqlite file, e.g. data/appliance.db>, with DATABASE_URL set to the PostgreSQL database ' +
  '(postgres://user:password@host:5432/database) or, in a terminal, typed when asked';

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/** Asks for the URL on the terminal without echoing what is typed (it holds the password). */
async function askForUrl(): Promise<string> {
  process.stdout.write('PostgreSQL URL (postgres://user:password@host:5432/database, not shown): ');
  const silent = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = readline.createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return await new Promise<string>((resolve) => rl.question('', (answer) => resolve(answer.trim())));
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
}

async function targetUrl(args: string[]): Promise<string> {
  if (args.length > 1) {
    throw new MoveError(`the PostgreSQL URL is not taken on the command line (the process list and the shell's history would keep its password): set DATABASE_URL, or leave it unset to be asked. ${USAGE}`);
  }
  const url = process.env.DATABASE_URL?.trim() || (process.stdin.isTTY ? await askForUrl() : '');
  if (!url) throw new MoveError(`DATABASE_URL is not set. ${USAGE}`);
  // Said without the URL itself: it holds the password.
  if (!isPostgresUrl(url)) throw new MoveError(`DATABASE_URL must be a PostgreSQL URL starting postgres:// or postgresql://. ${USAGE}`);
  return url;
}

async function run(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args[0];
  if (!file) throw new MoveError(USAGE);
  const url = await targetUrl(args);
  const summary = await moveToPostgres(file, url, { progress: (line) => console.log(line) });
  const rows = summary.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `Moved ${rows} rows in ${summary.tables.length} tables in ${(summary.ms / 1000).toFixed(1)} s: counts equal, ${summary.sampled} sampled rows equal, ` +
      `analytics counters rebuilt and equal. Set DATABASE_URL and start the appliance.`,
  );
}

run().catch((err) => {
  console.error(err instanceof MoveError ? `Move refused: ${err.message}` : printableError(err));
  process.exit(1);
});
