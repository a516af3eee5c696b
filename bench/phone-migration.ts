// How long migration 0005 (stored numbers → E.164) holds the start-up of an appliance that
// upgrades with many calls: `npx tsx bench/phone-migration.ts [calls] [legacyShare]`.
// Rows already in E.164 are skipped in SQL; the others call the phone module once per number.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { projectRoot } from '../core/config/paths.js';
import { openDatabase } from '../core/db/client.js';

const calls = Number(process.argv[2] ?? 100_000);
const legacyShare = Number(process.argv[3] ?? 0.5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-phone-migration-'));

// The migrations an appliance had before 0005.
const folder = path.join(dir, 'drizzle');
fs.cpSync(path.join(projectRoot(), 'drizzle'), folder, { recursive: true });
const journalFile = path.join(folder, 'meta', '_journal.json');
const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
const at = journal.entries.findIndex((e) => e.tag.startsWith('0005_'));
for (const later of journal.entries.slice(at)) fs.rmSync(path.join(folder, `${later.tag}.sql`));
journal.entries = journal.entries.slice(0, at);
fs.writeFileSync(journalFile, JSON.stringify(journal));

const file = path.join(dir, 'appliance.db');
const old = new Database(file);
old.pragma('journal_mode = WAL');
migrate(drizzle(old), { migrationsFolder: folder });
const userId = old.prepare("insert into users (email, password_hash) values ('bench@example.co.uk', 'x')").run().lastInsertRowid;
const insert = old.prepare("insert into calls (user_id, from_number, to_number, status, created_at) values (?, ?, ?, 'missed', ?)");
old.transaction(() => {
  for (let i = 0; i < calls; i++) {
    const n = String(900000 + (i % 100000)).padStart(6, '0');
    const legacy = i < calls * legacyShare;
    insert.run(userId, legacy ? `07700 ${n}` : `+447700${n}`, legacy ? '07700900001' : '+447700900001', Date.now() - i * 1000);
  }
})();
old.close();

const started = process.hrtime.bigint();
const upgraded = openDatabase(file);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const left = upgraded.sqlite.prepare("select count(*) n from calls where from_number not like '+%'").get() as { n: number };
await upgraded.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`migration 0005 on ${calls.toLocaleString('en-GB')} calls (${Math.round(legacyShare * 100)}% in 07… spelling): ${ms.toFixed(0)} ms at start-up; ${left.n} rows left unconverted`);
