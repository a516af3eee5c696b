import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup } from '../../core/backup/backup.js';
import { sqliteCopy } from '../../core/backup/database-copy.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin, signupBody } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { passwordResetTokens } from '../helpers/tables.js';
import { sqliteOf } from '../../core/db/client.js';

/** A port with nothing listening: the SMTP relay is down. */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${await deadPort()}` } });
});
afterAll(() => server.close());

describe('SMTP down', () => {
  it('a reset request gets the usual answer (the mail goes out after it, so timing cannot reveal the account), no usable token is left, and the account is unchanged', async () => {
    const { email, password, user } = await activeCustomer(server);
    const res = await new ApiClient(server.url).post('/api/auth/forgot-password', { email });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("If that email exists in our system, we've sent password reset instructions. Check your inbox!");
    // The failed send is logged once the relay refuses; the token it made is the only one.
    await waitUntil(async () => {
      const tokens = await server.database.db.select({ tokenHash: passwordResetTokens.tokenHash }).from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
      if (tokens.length !== 1) throw new Error('no token yet');
    }, 10_000);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('an approval still stands when its e-mail cannot be sent, and the admin is told', async () => {
    const signup = await new ApiClient(server.url).post('/api/auth/signup', signupBody());
    const admin = await signInAdmin(server);
    const res = await admin.post(`/api/admin/approvals/${signup.body.user.id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.user.accountStatus).toBe('active');
    expect(res.body.message).toBe('Decision saved, but the e-mail could not be sent.');
  });
});

describe('a backup running while calls are written', () => {
  it('neither blocks the writers nor loses a row, and the snapshot is consistent', async () => {
    // SQLite's own backup under its writers, so on SQLite whatever the run's engine (PostgreSQL's is pg_dump's snapshot, test/backup).
    const box = await startTestServer({ env: { DATABASE_URL: '' } });
    try {
      await backupUnderWriters(box);
    } finally {
      await box.close();
    }
  });
});

async function backupUnderWriters(server: TestServer): Promise<void> {
  const { user } = await activeCustomer(server);
  const insert = sqliteOf(server.database).prepare(
    "insert into calls (user_id, from_number, to_number, status) values (?, '+447700900111', '+447700900001', 'missed')",
  );
  const before = (sqliteOf(server.database).prepare('select count(*) n from calls').get() as { n: number }).n;
  let written = 0;
  const writer = setInterval(() => {
    for (let i = 0; i < 50; i++) insert.run(user.id), written++;
  }, 1);
  const backupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-under-load-'));
  try {
    const { manifest } = await createBackup({ copy: sqliteCopy(path.join(server.dataDir, 'appliance.db'), sqliteOf(server.database)), dataDir: server.dataDir, backupDir, keep: 1 });
    await new Promise((r) => setTimeout(r, 20));
    clearInterval(writer);
    const after = (sqliteOf(server.database).prepare('select count(*) n from calls').get() as { n: number }).n;
    expect(after).toBe(before + written);
    expect(manifest.rows.calls).toBeGreaterThanOrEqual(before);
    expect(manifest.rows.calls).toBeLessThanOrEqual(after);
  } finally {
    clearInterval(writer);
    fs.rmSync(backupDir, { recursive: true, force: true });
  }
}
