import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/config/paths.js';
import { openDatabase } from '../../core/db/client.js';

// Migration 0005 on a database as it was before it: rows stored in the spellings trunks
// sent, then the appliance starts on the new version and applies the real migration.

const MIGRATION = '0005_phone_numbers_e164';
let dir: string;

/** The project's migrations up to (not including) 0005, as an older appliance shipped them. */
function migrationsBefore0005(): string {
  const folder = path.join(dir, 'drizzle');
  fs.cpSync(path.join(projectRoot(), 'drizzle'), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === MIGRATION);
  expect(at).toBeGreaterThan(0);
  for (const later of journal.entries.slice(at)) fs.rmSync(path.join(folder, `${later.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phone-migration-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('migration 0005: stored numbers in E.164', () => {
  it('rewrites callers, dialled numbers and question callers stored in any spelling, and leaves the rest alone', async () => {
    const file = path.join(dir, 'appliance.db');
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: migrationsBefore0005() });
    const userId = old.prepare("insert into users (email, password_hash) values ('owner@example.co.uk', 'x')").run().lastInsertRowid;
    const addCall = old.prepare("insert into calls (user_id, from_number, to_number, status, duration) values (?, ?, ?, 'voicemail', 7)");
    const stored: [string, string][] = [
      ['07700922222', '447700900001'],
      ['+44 7700 922223', '07700 900001'],
      ['00447700922224', '+447700900001'],
      ['anonymous', '+447700900001'],
      ['+14155550100', '+447700900001'],
    ];
    for (const [from, to] of stored) addCall.run(userId, from, to);
    old.prepare("insert into unanswered_questions (user_id, question, caller_number) values (?, 'Open Sundays?', '07700 922222'), (?, 'Withheld?', null)").run(userId, userId);
    const statsBefore = old.prepare('select sum(calls) calls, sum(duration_sum) duration from call_stats').get();
    old.close();

    const upgraded = openDatabase(file);
    try {
      const rows = upgraded.sqlite.prepare('select from_number f, to_number t from calls order by id').all();
      expect(rows).toEqual([
        { f: '+447700922222', t: '+447700900001' },
        { f: '+447700922223', t: '+447700900001' },
        { f: '+447700922224', t: '+447700900001' },
        { f: 'anonymous', t: '+447700900001' },
        { f: '+14155550100', t: '+447700900001' },
      ]);
      const questions = upgraded.sqlite.prepare('select caller_number c from unanswered_questions order by id').all();
      expect(questions).toEqual([{ c: '+447700922222' }, { c: null }]);
      // Rewriting a number is not a new call: the analytics counters are unchanged.
      expect(upgraded.sqlite.prepare('select sum(calls) calls, sum(duration_sum) duration from call_stats').get()).toEqual(statsBefore);
    } finally {
      await upgraded.close();
    }
  });
});
