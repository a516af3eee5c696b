import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_USER } from '../../core/auth/sessions.js';
import { users } from '../helpers/tables.js';
import type { Mailer } from '../../core/mail/mailer.js';
import type { MailMessage } from '../../core/mail/templates.js';
import { activeCustomer, signInAdmin, signupBody } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { sqliteOf } from '../../core/db/client.js';

// Issue 13 item 10.

/** A mail relay that, while `holding`, keeps each message until the test lets it go. */
function heldMailer() {
  const state = { holding: false };
  const sent: MailMessage[] = [];
  const waiting: Array<() => void> = [];
  const mailer: Mailer = {
    send: (m) =>
      new Promise<void>((resolve) => {
        const deliver = () => {
          sent.push(m);
          resolve();
        };
        if (state.holding) waiting.push(deliver);
        else deliver();
      }),
    close: () => undefined,
  };
  return { mailer, sent, waiting, state, release: () => waiting.splice(0).forEach((go) => go()) };
}

let server: TestServer;
const relay = heldMailer();
beforeAll(async () => {
  server = await startTestServer({ mailer: relay.mailer });
});
afterAll(async () => {
  relay.release();
  await server.close();
});

const userRow = async (id: number) => (await server.database.db.select().from(users).where(eq(users.id, id)).limit(1))[0]!;

describe('smaller holes', () => {
  it('forgot-password answers a known address before its mail is sent, like an unknown one', async () => {
    const { email } = await activeCustomer(server);
    relay.state.holding = true;
    const before = relay.sent.length;
    const known = await new ApiClient(server.url).post('/api/auth/forgot-password', { email });
    const unknown = await new ApiClient(server.url).post('/api/auth/forgot-password', { email: 'nobody@example.co.uk' });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    // Answered while the relay still holds the message: the mail was not on the request's path.
    expect(relay.sent.length).toBe(before);
    await waitUntil(() => {
      if (relay.waiting.length !== 1) throw new Error('reset mail not handed to the relay yet');
    }, 5000);
    relay.state.holding = false;
    relay.release();
    expect(relay.sent.at(-1)!.to).toBe(email);
  });

  it('admin PATCH {accountStatus: "active"} on a pending sign-up is refused and changes nothing', async () => {
    const signup = await new ApiClient(server.url).post('/api/auth/signup', signupBody());
    const admin = await signInAdmin(server);
    const before = await userRow(signup.body.user.id);
    const mails = relay.sent.length;
    const res = await admin.patch(`/api/admin/users/${signup.body.user.id}`, { accountStatus: 'active' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This sign-up request is awaiting review: approve it under Signup Approvals instead.');
    expect(await userRow(signup.body.user.id)).toEqual(before);
    expect(relay.sent.length).toBe(mails);
    // The approval route still does it properly.
    const approved = await admin.post(`/api/admin/approvals/${signup.body.user.id}/approve`);
    expect(approved.status).toBe(200);
    expect((await userRow(signup.body.user.id)).accountStatus).toBe('active');
    expect((await userRow(signup.body.user.id)).trialExpiresAt).not.toBeNull();
  });

  it('keeps only the newest ten sessions of a user: the eleventh sign-in signs the oldest device out', async () => {
    const { email, password, client: first } = await activeCustomer(server);
    const devices: ApiClient[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_USER - 1; i++) {
      const d = new ApiClient(server.url);
      expect((await d.post('/api/auth/login', { email, password })).status).toBe(200);
      devices.push(d);
    }
    // Ten sessions: all alive.
    for (const d of [first, ...devices]) expect((await d.get('/api/auth/me')).status).toBe(200);
    const eleventh = new ApiClient(server.url);
    expect((await eleventh.post('/api/auth/login', { email, password })).status).toBe(200);
    expect((await first.get('/api/auth/me')).status).toBe(401);
    for (const d of [...devices, eleventh]) expect((await d.get('/api/auth/me')).status).toBe(200);
    const rows = sqliteOf(server.database).prepare('select count(*) n from sessions where user_id = (select id from users where email = ?)').get(email) as { n: number };
    expect(rows.n).toBe(MAX_SESSIONS_PER_USER);
  });

  it('sign-up for a known e-mail keeps SPEC’s 409 and leaves the first account as it was (README "Security" says why)', async () => {
    const { email, user } = await activeCustomer(server);
    const before = await userRow(user.id);
    const res = await new ApiClient(server.url).post('/api/auth/signup', signupBody({ businessEmail: email.toUpperCase(), password: 'Other!Pass9' }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('An account with this email already exists. Please log in instead.');
    expect(await userRow(user.id)).toEqual(before);
  });
});
