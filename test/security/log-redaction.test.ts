import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logging/logger.js';
import { redactUrl } from '../../core/http/log-redaction.js';
import { insertCalls } from '../calls/seed.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

// Issue 13 item 7: the request log of a whole journey holds neither the reset token (in the
// console's /reset-password/<token> URL) nor a caller's number (in the erasure URL).

const lines: string[] = [];
let server: TestServer;
beforeAll(async () => {
  // The production logger's settings, writing into memory.
  const logger = createLogger({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  server = await startTestServer({ logger });
});
afterAll(() => server.close());

function mailedToken(): string {
  const dir = path.join(server.dataDir, 'outbox', 'mail');
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const mail = fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const m = /\/reset-password\/([A-Za-z0-9_-]{43})/.exec(mail);
    if (m) return m[1]!;
  }
  throw new Error('no reset mail yet');
}

describe('logs of a full journey', () => {
  it('never contain the reset token or the caller’s number, however the URL was spelt', async () => {
    const owner = await activeCustomer(server);
    const caller = '+447700900123';
    await insertCalls(server, [{ userId: owner.user.id, fromNumber: caller, status: 'voicemail' }]);

    const anon = new ApiClient(server.url);
    expect((await anon.post('/api/auth/forgot-password', { email: owner.email })).status).toBe(200);
    const token = await waitUntil(mailedToken, 10_000);
    // The link as the browser opens it, and spelt otherwise, with the token in a query too.
    await fetch(`${server.url}/reset-password/${token}`);
    await fetch(`${server.url}/%72eset-password/${token}?t=${token}`);
    const reset = await anon.post('/api/auth/reset-password', { token, newPassword: 'newpass1', confirmPassword: 'newpass1' });
    expect(reset.status).toBe(200);

    const signedIn = new ApiClient(server.url);
    expect((await signedIn.post('/api/auth/login', { email: owner.email, password: 'newpass1' })).status).toBe(200);
    expect((await signedIn.get('/api/call-logs')).body.callLogs).toHaveLength(1);
    const erased = await signedIn.delete(`/api/user/callers/${encodeURIComponent(caller)}`);
    expect(erased.status).toBe(200);
    expect((await signedIn.get('/api/call-logs')).body.callLogs).toHaveLength(0);
    await signedIn.delete('/api/user/callers/07700900123');
    await signedIn.delete('/%61pi/user/callers/447700900123');

    // Fastify logs each answer once it is sent: wait until every request has its line.
    const count = (msg: string) => lines.filter((l) => l.includes(`"msg":"${msg}"`)).length;
    await waitUntil(() => {
      if (count('request completed') < count('incoming request')) throw new Error('not yet');
    }, 5000);
    expect(lines.some((l) => l.includes('"url":"/%61pi/user/callers/[redacted]"'))).toBe(true);
    const log = lines.join('\n');
    expect(log).toContain('/reset-password/[redacted]');
    expect(log).toContain('/api/user/callers/[redacted]');
    expect(log).not.toContain(token);
    for (const spelling of ['7700900123', '%2B44']) expect(log).not.toContain(spelling);
    expect(log).not.toContain(owner.password);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/reset-password/abc', '/reset-password/[redacted]'],
    ['/reset-password/abc/def?x=1', '/reset-password/[redacted]?x=[redacted]'],
    ['/Reset-Password/abc', '/Reset-Password/[redacted]'],
    ['/api/user/callers/%2B447700900123', '/api/user/callers/[redacted]'],
    ['/api/call-logs?before=123-456', '/api/call-logs?before=[redacted]'],
    ['/api/call-logs/12/recording', '/api/call-logs/12/recording'],
    ['/reset-password', '/reset-password'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
