// SQLite's analytics counters are kept by three triggers on calls, generated from one list of
// counters and one London-time rule (scripts/db-schema/counter-triggers.ts), in place of the
// twelve the earlier migrations made. What they count is proven by analytics.test.ts and
// consistency.test.ts; this proves the migrated database runs these three and no older copy,
// that the migration holds what the generator writes, and that the three keep exactly the rows
// the twelve kept, before and after a box with calls is upgraded.
import fs, { readFileSync } from 'node:fs';
import os from 'node:os';
import path, { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, sqliteOf } from '../../core/db/client.js';
import { counterTriggersMigration } from '../../scripts/db-schema/counter-triggers.js';
import { randomTime, rng } from './counter-model.js';

const root = join(import.meta.dirname, '../..');
let handle: DatabaseHandle;
beforeEach(() => {
  handle = openDatabase(':memory:');
});
afterEach(() => handle.close());

describe('the analytics counter triggers on SQLite', () => {
  it('are three on calls, each stating the London-time rule through the one generator', () => {
    const triggers = sqliteOf(handle).prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'calls' ORDER BY name").all() as { name: string; sql: string }[];
    expect(triggers.map((t) => t.name)).toEqual(['calls_counters_delete', 'calls_counters_insert', 'calls_counters_update']);
    const { text } = counterTriggersMigration(root);
    for (const t of triggers) expect(text).toContain(t.sql);
  });

  it('are installed by the migration npm run db:schema writes', () => {
    const { path, text } = counterTriggersMigration(root);
    const onDisk = readFileSync(join(root, path), 'utf8');
    expect(onDisk === text, `${path} differs from scripts/db-schema/counter-triggers.ts: edit the generator, then run npm run db:schema`).toBe(true);
  });
});

/** The project's migrations before the counter triggers', as the box before this one shipped them. */
function migrationsBefore(dir: string, tag: string): string {
  const folder = path.join(dir, 'drizzle');
  fs.cpSync(path.join(root, 'drizzle'), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

type Sqlite = InstanceType<typeof Database>;

/** One random write to calls (or an owner), the same on every database given the same generator. */
function randomWrite(r: ReturnType<typeof rng>, db: Sqlite, owners: number[], callIds: number[]): void {
  const roll = r.next();
  const status = () => r.pick(['missed', 'answered', 'voicemail']);
  const urgency = () => r.pick([null, null, 'urgent', 'normal', 'low']);
  if (roll < 0.45 || callIds.length === 0) {
    const id = db
      .prepare(
        `insert into calls (user_id, from_number, to_number, status, duration, created_at, notification_sent, notification_error, transcription_status, urgency, test_call)
         values (?, '+447700900123', '+447700900001', ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.pick(owners), status(), r.int(300), randomTime(r), r.int(2), r.next() < 0.2 ? 'SMS: bad number' : null, r.pick(['none', 'pending', 'done', 'failed']), urgency(), r.next() < 0.1 ? 1 : 0).lastInsertRowid;
    callIds.push(Number(id));
  } else if (roll < 0.85) {
    const [column, value] = r.pick<[string, () => unknown]>([
      ['status', status],
      ['duration', () => r.int(300)],
      ['notification_sent', () => r.int(2)],
      ['notification_error', () => (r.next() < 0.5 ? 'SMS: bad number' : null)],
      ['transcription_status', () => r.pick(['none', 'pending', 'done', 'failed'])],
      ['urgency', urgency],
      ['created_at', () => randomTime(r)],
      ['user_id', () => r.pick(owners)],
      ['summary_status', () => 'done'], // read by no counter: no trigger of either kind fires
    ]);
    db.prepare(`update calls set ${column} = ? where id = ?`).run(value(), r.pick(callIds));
  } else if (roll < 0.99) {
    const id = r.pick(callIds);
    db.prepare('delete from calls where id = ?').run(id);
    callIds.splice(callIds.indexOf(id), 1);
  } else {
    // An owner closes their account: their calls go by the cascade, their counters with them.
    const gone = owners.splice(r.int(owners.length), 1)[0]!;
    db.prepare('delete from users where id = ?').run(gone);
    // In id order: without ORDER BY the rows come in whichever index the planner scans, which
    // differs between two boxes with different indexes on calls, and so would the picks after it.
    callIds.splice(0, callIds.length, ...(db.prepare('select id from calls order by id').pluck().all() as number[]));
    owners.push(Number(db.prepare("insert into users (email, password_hash) values (?, 'x')").run(`o${r.int(1e9)}@example.co.uk`).lastInsertRowid));
  }
}

const tables = (db: Sqlite) => ({
  callStats: db.prepare('select * from call_stats order by user_id, day, hour').all(),
  callHourStats: db.prepare('select * from call_hour_stats order by user_id, hour').all(),
});

describe('the three counter triggers against the twelve they replace', () => {
  it('keep the same rows after the same writes, and carry on exactly on a box upgraded with calls stored', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'counter-triggers-'));
    try {
      const file = path.join(dir, 'appliance.db');
      const tag = path.basename(counterTriggersMigration(root).path, '.sql');
      const old = new Database(file);
      old.pragma('foreign_keys = ON');
      old.pragma('synchronous = OFF'); // a scratch file: no fsync per write
      old.function('phone_e164', (n: unknown) => n); // 0005 rewrites stored numbers: there are none yet
      migrate(drizzle(old), { migrationsFolder: migrationsBefore(dir, tag) });
      const oldTriggers = old.prepare("select count(*) from sqlite_master where type = 'trigger' and tbl_name = 'calls'").pluck().get();
      expect(oldTriggers).toBe(12);

      // The same writes, from the same seed, on the old box and on a new one.
      const run = (db: Sqlite, seed: number, steps: number, state: { owners: number[]; calls: number[] }) => {
        const r = rng(seed);
        for (let i = 0; i < steps; i++) randomWrite(r, db, state.owners, state.calls);
      };
      const addOwners = (db: Sqlite) => [1, 2, 3].map((i) => Number(db.prepare("insert into users (email, password_hash) values (?, 'x')").run(`owner${i}@example.co.uk`).lastInsertRowid));
      const oldState = { owners: addOwners(old), calls: [] as number[] };
      const fresh = sqliteOf(handle);
      const freshState = { owners: addOwners(fresh), calls: [] as number[] };
      run(old, 11, 400, oldState);
      run(fresh, 11, 400, freshState);
      const before = tables(fresh);
      expect(before.callStats.length).toBeGreaterThan(50);
      expect(tables(old)).toEqual(before);
      old.close();

      // The old box upgraded: the migration swaps the triggers and leaves the counts as they were.
      const upgraded = openDatabase(file);
      try {
        expect(tables(upgraded.sqlite)).toEqual(before);
        run(upgraded.sqlite, 12, 400, oldState);
        run(fresh, 12, 400, freshState);
        expect(tables(upgraded.sqlite)).toEqual(tables(fresh));
      } finally {
        void upgraded.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
