import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { asc } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/config/paths.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { tablesOf } from '../../core/db/schema.js';
import { CallNotifier } from '../../core/notify/notifier.js';
import { createOutboxGateway } from '../../core/notify/outbox-gateway.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';

// The migration that makes sign-up phones wait for a code, on a database as an older appliance
// left it (TEST_DATABASE=postgres: on PostgreSQL): owners who were getting texts keep getting
// them, and a request still awaiting review no longer has its typed phone in use.

const TAG = /_phone_confirmed$/; // the lead renumbers migrations at merge: found by name
const onPostgres = process.env.TEST_DATABASE === 'postgres';
const quiet = { info: () => {}, warn: () => {} };
let dir: string;
let postgres: PostgresServer | undefined;

/** The project's migrations before this one, as the older appliance shipped them. */
function migrationsBefore(folderName: 'drizzle' | 'drizzle-pg'): string {
  const folder = path.join(dir, folderName);
  fs.cpSync(path.join(projectRoot(), folderName), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => TAG.test(e.tag));
  expect(at).toBeGreaterThan(0);
  for (const later of journal.entries.slice(at)) fs.rmSync(path.join(folder, `${later.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

// As sign-up stored them before: the phone was also the notification number; owner B later
// cleared that number, so B's texts went to the sign-up phone by the fallback.
const OLD_ROWS = `insert into users (email, password_hash, account_status, phone_number, notification_number) values
  ('a@example.co.uk', 'x', 'active', '+447700900601', '+447700900601'),
  ('b@example.co.uk', 'x', 'active', '+447700900602', null),
  ('c@example.co.uk', 'x', 'pending_approval', '+447700900603', '+447700900603')`;

/** A database at the migration before this one, holding OLD_ROWS; then opened as the new appliance opens it. */
async function upgradedDatabase(): Promise<DatabaseHandle> {
  if (!onPostgres) {
    const file = path.join(dir, 'appliance.db');
    const old = new Database(file);
    // Migration 0005 calls it on stored numbers; the database is empty then, so any function will do.
    old.function('phone_e164', { deterministic: true }, (n: unknown) => n);
    migrateSqlite(drizzleSqlite(old), { migrationsFolder: migrationsBefore('drizzle') });
    old.exec(OLD_ROWS);
    old.close();
    return openAppDatabase({ kind: 'sqlite', file }, quiet);
  }
  postgres = await startPostgres();
  const url = await postgres.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migratePg(drizzlePg(client), { migrationsFolder: migrationsBefore('drizzle-pg') });
    await client.query(OLD_ROWS);
  } finally {
    await client.end();
  }
  return openAppDatabase({ kind: 'postgres', url }, quiet);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signup-phone-migration-'));
});
afterAll(async () => {
  await postgres?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`migration phone_confirmed (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('keeps existing owners texted where they were, and takes the typed phone out of use for a request awaiting review', async () => {
    const handle = await upgradedDatabase();
    const { calls, users } = tablesOf(handle.db);
    try {
      const db = handle.db;
      const [a, b, c] = await db.select().from(users).orderBy(asc(users.id));
      expect([a!.phoneConfirmedAt, b!.phoneConfirmedAt]).toEqual([a!.createdAt, b!.createdAt]);
      expect(c).toMatchObject({ phoneConfirmedAt: null, notificationNumber: null, phoneNumber: '+447700900603' });

      const outbox = path.join(dir, 'outbox');
      const notifier = new CallNotifier(db, createOutboxGateway(outbox));
      for (const owner of [a!, b!, c!]) {
        const [call] = await db.insert(calls).values({ userId: owner.id, fromNumber: '+447700900555', toNumber: '+447700900001', status: 'missed' }).returning();
        await notifier.notify(call!, owner, `Missed call ${call!.id}`);
      }
      const sent = fs.readdirSync(outbox).map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), 'utf8')) as { to: string; body: string });
      expect(sent.map((m) => m.to).sort()).toEqual(['+447700900601', '+447700900602']);
      const [, , missedC] = await db.select().from(calls).orderBy(asc(calls.id));
      expect(missedC).toMatchObject({ notificationSent: false, notificationError: expect.stringMatching(/^Nothing was texted: your number \+447700900603 is not confirmed yet\./) });
    } finally {
      await handle.close();
    }
  });
});
