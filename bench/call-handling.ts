// What call handling costs a call on arrival: loadCallHandling (one primary-key read) and
// decideHandling (lists of 200 numbers each, hours on, three nations' holidays), among 1,000 owners.
// Prints figures; asserts nothing. Run: npx tsx bench/call-handling.ts
import { decideHandling, defaultCallHandling, loadCallHandling, saveCallHandling } from '../core/call-handling/index.js';
import { startTestServer } from '../test/helpers/server.js';
import { transaction } from '../core/db/transaction.js';
import { sqliteOf } from '../core/db/client.js';

const OWNERS = 1000;
const RUNS = 20_000;

const server = await startTestServer();
const { db } = server.database;
const sqlite = sqliteOf(server.database);
const addUser = sqlite.prepare(`insert into users (email, password_hash, role, account_status) values (?, 'x', 'customer', 'active')`);
const numbers = (base: number) => Array.from({ length: 200 }, (_, i) => `+4477009${String(base + i).padStart(5, '0')}`);
const ids: number[] = [];
await transaction(db, async () => {
  for (let i = 0; i < OWNERS; i++) {
    const id = Number(addUser.run(`owner${i}@bench.example`).lastInsertRowid);
    ids.push(id);
    await saveCallHandling(
      db,
      id,
      { ...defaultCallHandling(), hoursEnabled: true, transferNumber: '+447911123456', holidayNations: ['england-wales', 'scotland', 'northern-ireland'], blockList: numbers(0), vipList: numbers(200) },
      new Date(),
    );
  }
});

function measure(label: string, fn: (i: number) => void) {
  for (let i = 0; i < 1000; i++) fn(i); // warm-up (JIT, prepared statements, holiday years)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => (times[Math.floor(p * (times.length - 1))]! * 1000).toFixed(1);
  console.log(`${label}: p50 ${q(0.5)} µs, p95 ${q(0.95)} µs, p99 ${q(0.99)} µs (${RUNS} runs)`);
}

const settings = await loadCallHandling(db, ids[0]!);
const start = Date.parse('2026-01-01T00:00:00Z');
measure('loadCallHandling (1,000 owners, 400 listed numbers each)', (i) => void loadCallHandling(db, ids[i % OWNERS]!));
measure('decideHandling (caller not listed, any time of 2026)', (i) => void decideHandling(settings, 'agent', '07700 912345', new Date(start + (i * 1_577_000) % 31_536_000_000)));
measure('decideHandling (VIP, last on the list)', () => void decideHandling(settings, 'agent', '+447700900399', new Date(start)));
await server.close();
