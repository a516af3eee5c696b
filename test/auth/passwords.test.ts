import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

/** A real SMTP server: the mail path is exercised as in production (nodemailer over SMTP). */
const received: { to: string[]; data: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, done) {
    let data = '';
    stream.on('data', (c: Buffer) => (data += c.toString()));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
      done();
    });
  },
});

let server: TestServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL: 'https://calls.example.co.uk' } });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The reset link mailed to `email`, once it has arrived (the mail goes out after the answer). */
function resetLinkFor(email: string): Promise<string> {
  return waitUntil(() => linkIn(email), 10_000);
}

function linkIn(email: string): string {
  const mail = [...received].reverse().find((m) => m.to.includes(email));
  if (!mail) throw new Error(`no mail to ${email}`);
  const unfolded = mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const link = unfolded.match(/https:\/\/calls\.example\.co\.uk\/reset-password\/([A-Za-z0-9_-]+)/);
  if (!link) throw new Error(`no reset link in mail: ${mail.data}`);
  return link[1]!;
}

const anon = () => new ApiClient(server.url);

describe('forgot and reset password', () => {
  it('answers known and unknown addresses identically, and mails a PUBLIC_URL link only to the known one', async () => {
    const { email } = await activeCustomer(server);
    const before = received.length;
    const known = await anon().post('/api/auth/forgot-password', { email });
    const unknown = await anon().post('/api/auth/forgot-password', { email: 'nobody@example.co.uk' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe("If that email exists in our system, we've sent password reset instructions. Check your inbox!");
    expect(await resetLinkFor(email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(received.length).toBe(before + 1);
  });

  it('refuses an invalid e-mail address with the spec message', async () => {
    const res = await anon().post('/api/auth/forgot-password', { email: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please enter a valid email address');
  });

  it('resets with the mailed token once, revokes every session, and the token is then dead', async () => {
    const { client, email } = await activeCustomer(server);
    await anon().post('/api/auth/forgot-password', { email });
    const token = await resetLinkFor(email);

    const mismatch = await anon().post('/api/auth/reset-password', { token, newPassword: 'abcdef', confirmPassword: 'abcdeg' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe('Passwords do not match');
    expect(mismatch.body.errors.confirmPassword).toBe('Passwords do not match');
    const short = await anon().post('/api/auth/reset-password', { token, newPassword: 'abc', confirmPassword: 'abc' });
    expect(short.body.message).toBe('Password must be at least 6 characters');

    const ok = await anon().post('/api/auth/reset-password', { token, newPassword: 'newpass1', confirmPassword: 'newpass1' });
    expect(ok.status).toBe(200);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect((await anon().post('/api/auth/login', { email, password: 'newpass1' })).status).toBe(200);

    const again = await anon().post('/api/auth/reset-password', { token, newPassword: 'another1', confirmPassword: 'another1' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This reset link is invalid or has expired. Please request a new password reset.');
  });

  it('refuses a token older than an hour', async () => {
    const { email, password } = await activeCustomer(server);
    await anon().post('/api/auth/forgot-password', { email });
    const token = await resetLinkFor(email);
    server.clock.offsetMs = 61 * 60 * 1000;
    try {
      const res = await anon().post('/api/auth/reset-password', { token, newPassword: 'newpass1', confirmPassword: 'newpass1' });
      expect(res.status).toBe(400);
    } finally {
      server.clock.offsetMs = 0;
    }
    expect((await anon().post('/api/auth/login', { email, password })).status).toBe(200);
  });

  it('refuses an empty token with the invalid-link message', async () => {
    const res = await anon().post('/api/auth/reset-password', { token: '', newPassword: 'newpass1', confirmPassword: 'newpass1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid reset link. Please request a new password reset.');
  });

  it('stores reset tokens only hashed', async () => {
    const { email } = await activeCustomer(server);
    await anon().post('/api/auth/forgot-password', { email });
    const token = await resetLinkFor(email);
    const rows = await server.database.db.select({ tokenHash: passwordResetTokens.tokenHash }).from(passwordResetTokens);
    expect(rows).not.toHaveLength(0);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
  });
});

describe('change password', () => {
  it('checks the current password, the 6-character rule and the confirmation', async () => {
    const { client, password } = await activeCustomer(server);
    const wrong = await client.post('/api/auth/change-password', { currentPassword: 'nope-nope', newPassword: 'abcdef1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Current password is incorrect');
    const short = await client.post('/api/auth/change-password', { currentPassword: password, newPassword: 'abc' });
    expect(short.body.message).toBe('Password must be at least 6 characters');
    const mismatch = await client.post('/api/auth/change-password', { currentPassword: password, newPassword: 'abcdef1', confirmPassword: 'abcdef2' });
    expect(mismatch.body.message).toBe('New passwords do not match');
    const missing = await client.post('/api/auth/change-password', { currentPassword: '', newPassword: '' });
    expect(missing.body.message).toBe('All fields are required');
  });

  it('signs out every other session but keeps this one on a fresh session id', async () => {
    const { client, email, password } = await activeCustomer(server);
    const other = anon();
    await other.post('/api/auth/login', { email, password });
    expect((await other.get('/api/auth/me')).status).toBe(200);
    const oldCookie = client.cookie;
    const res = await client.post('/api/auth/change-password', { currentPassword: password, newPassword: 'changed1' });
    expect(res.status).toBe(200);
    expect(client.cookie).not.toBe(oldCookie);
    expect((await client.get('/api/auth/me')).status).toBe(200);
    expect((await other.get('/api/auth/me')).status).toBe(401);
    expect((await anon().post('/api/auth/login', { email, password: 'changed1' })).status).toBe(200);
  });

  it('needs a session', async () => {
    const res = await anon().post('/api/auth/change-password', { currentPassword: 'a', newPassword: 'abcdef' });
    expect(res.status).toBe(401);
  });
});
