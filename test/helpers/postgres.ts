// A real PostgreSQL 15 for tests: a throw-away cluster (initdb) in a temp folder, on a free
// loopback port, started and stopped with pg_ctl by this process, with a database per test.
// PostgreSQL refuses to run as root, so under root (CI, containers) the server runs as the
// `postgres` system user the Debian package creates. A missing PostgreSQL fails the test
// file that asked for it: nothing here skips.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres } from '../../core/db/pg/open-postgres.js';

/** Debian's postgresql-15; PG_BINDIR points elsewhere (another distribution's layout). */
const BIN_DIR = process.env.PG_BINDIR ?? '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'postgres';
const TEMPLATE = 'appliance_template';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

export interface PostgresServer {
  readonly port: number;
  /** The URL of a database on this server. */
  url(database: string): string;
  /**
   * A new database of its own: empty, or (migrated) a clone of a template the app's
   * migrations were applied to once, which costs a file copy instead of a migration run.
   */
  createDatabase(opts?: { migrated?: boolean }): Promise<string>;
  /**
   * A login role with a password (a superuser, so it can read every table): with
   * `passwordAuth` the server checks it, as an operator's PostgreSQL does.
   */
  createRole(name: string, password: string): Promise<void>;
  /** Stops the server and deletes its folder (also done at process exit if a test forgot). */
  stop(): Promise<void>;
}

function requirePostgres(): void {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!fs.existsSync(path.join(BIN_DIR, tool))) {
      throw new Error(
        `PostgreSQL 15 is not installed (${path.join(BIN_DIR, tool)} is missing): install the Debian package postgresql-15 ` +
          '(apt-get install postgresql-15, as .ci/run does) or set PG_BINDIR to the folder holding initdb and pg_ctl',
      );
    }
  }
}

/** Runs a PostgreSQL tool, as the postgres system user when this process is root. */
function runTool(tool: string, args: string[], owner: { uid: number; gid: number } | null): string {
  const file = path.join(BIN_DIR, tool);
  const [cmd, argv] = owner ? ['setpriv', [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--init-groups', file, ...args]] : [file, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
}

function systemUser(name: string): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`running as root, PostgreSQL needs an unprivileged system user "${name}" (the postgresql-15 package creates it)`);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

let counter = 0;

export interface PostgresOptions {
  /**
   * Roles other than the superuser sign in with their password over TCP (scram-sha-256), as on
   * an operator's server; the superuser the helper itself uses stays trusted on loopback.
   */
  passwordAuth?: boolean;
}

export async function startPostgres(opts: PostgresOptions = {}): Promise<PostgresServer> {
  requirePostgres();
  const owner = process.getuid?.() === 0 ? systemUser(SUPERUSER) : null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  const dataDir = path.join(dir, 'data');
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  let running = false;
  const stopNow = () => {
    if (running) {
      running = false;
      try {
        runTool('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w'], owner);
      } catch {
        // Already gone: nothing left to stop.
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A test file that throws past its afterAll, or a worker that exits, still leaves nothing behind.
  process.once('exit', stopNow);

  try {
    runTool('initdb', ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], owner);
    if (opts.passwordAuth) {
      const hba = path.join(dataDir, 'pg_hba.conf');
      fs.writeFileSync(hba, `local all all trust\nhost all ${SUPERUSER} 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n`);
      if (owner) fs.chownSync(hba, owner.uid, owner.gid);
    }
    let port = 0;
    // The free port can be taken between asking and binding: try a fresh one then.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const opts = [
        `-p ${port}`,
        `-c listen_addresses=127.0.0.1`,
        `-c unix_socket_directories=${dir}`,
        // A throw-away cluster: durability buys nothing and costs the shared machine's disk.
        '-c fsync=off -c synchronous_commit=off -c full_page_writes=off',
        '-c max_connections=200 -c shared_buffers=32MB',
      ].join(' ');
      try {
        runTool('pg_ctl', ['start', '-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-t', '120', '-o', opts], owner);
        running = true;
        break;
      } catch (err) {
        if (attempt >= 3) {
          const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
          throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${log}`);
        }
      }
    }

    const url = (database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
    const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        return await fn(client);
      } finally {
        await client.end();
      }
    };
    let template: Promise<void> | undefined;
    const migratedTemplate = () =>
      (template ??= (async () => {
        await admin((c) => c.query(`create database ${TEMPLATE}`));
        const handle = await openPostgres(url(TEMPLATE), quiet);
        await handle.close();
      })());

    return {
      port,
      url,
      async createDatabase(opts = {}) {
        const name = `t${process.pid}_${++counter}`;
        if (opts.migrated) await migratedTemplate();
        await admin((c) => c.query(`create database ${name}${opts.migrated ? ` template ${TEMPLATE}` : ''}`));
        return url(name);
      },
      async createRole(name, password) {
        await admin((c) => c.query(`create role ${name} login superuser password '${password.replace(/'/g, "''")}'`));
      },
      async stop() {
        process.removeListener('exit', stopNow);
        stopNow();
      },
    };
  } catch (err) {
    process.removeListener('exit', stopNow);
    stopNow();
    throw err;
  }
}
