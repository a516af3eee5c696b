// Issue 60 item 4: the slow-box guard tells the admins and the owners affected, once per
// episode. The guard is wired as installAgentFlow wires it (its reports to the core's
// services.agentGuard) and fed turn metrics directly: no PBX is needed to decide who is told.
// Mail goes through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../core/accounts/users.js';
import type { MailMessage } from '../../core/mail/templates.js';
import { createSlowBoxGuard, type SlowBoxGuard } from '../../pbx/admission/slow-box-guard.js';
import { ADMIN, signInAdmin } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startSmtpServer, type SmtpDouble } from '../helpers/smtp.js';
import { waitUntil } from '../helpers/wait.js';

const quiet = { warn: () => {}, info: () => {} };
const ENV = { AGENT_SLOW_P50_MS: '2000', AGENT_SLOW_TRIAL_EVERY: '5', NODE_NAME: 'node-a', PUBLIC_URL: 'https://calls.example.co.uk' };

function guardOf(server: TestServer): SlowBoxGuard {
  return createSlowBoxGuard({ ...server.config.agentSlow, log: quiet, reports: server.services.agentGuard });
}
const feed = (g: SlowBoxGuard, ms: number, n: number) => {
  for (let i = 0; i < n; i++) g.record(ms);
};

describe('the slow-box guard tells the admins and the owners affected, once per episode', () => {
  let smtp: SmtpDouble;
  let server: TestServer;
  let admin: ApiClient;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ env: { ...ENV, SMTP_URL: smtp.url } });
    admin = await signInAdmin(server);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const guardMails = () => smtp.received.filter((r) => /^(Agent mode|Your assistant)/.test(r.mail.subject ?? ''));
  const mailsTo = (to: string) => guardMails().filter((r) => r.to.includes(to));

  it('one e-mail to each admin on closing, none on further slow turns, each affected owner once, one on recovery', async () => {
    const db = server.database.db;
    const second = await insertUser(db, { email: 'ops@example.co.uk', passwordHash: 'x', role: 'admin', accountStatus: 'active' });
    await insertUser(db, { email: 'gone@example.co.uk', passwordHash: 'x', role: 'admin', accountStatus: 'suspended' });
    const hale = await insertUser(db, { email: 'hale@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Hale Plumbing', summaryEmail: 'calls@hale.example.co.uk' });
    const acme = await insertUser(db, { email: 'acme@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Acme Electrics' });
    const quietOwner = await insertUser(db, { email: 'quiet@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Quiet Ltd' });
    const guard = guardOf(server);
    const agentGuard = server.services.agentGuard;

    feed(guard, 2600, 19);
    await agentGuard.settled();
    expect(guardMails()).toEqual([]);
    expect((await admin.get('/api/admin/engines')).body.agentGuard).toEqual({ state: 'open', limitMs: 2000 });

    guard.record(2600); // the 20th slow turn closes it
    expect(guard.closed).toBe(true);
    await waitUntil(() => expect(guardMails()).toHaveLength(2), 20_000);
    for (const to of [ADMIN.email, second.email]) {
      const [paused] = mailsTo(to);
      expect(paused!.mail.subject).toBe('Agent mode is paused on node-a');
      expect(paused!.mail.text).toContain(
        "Agent mode is paused on node-a: the assistant took 2.6 s to start answering (median of the last 20 turns; the limit is 2 s). New agent-mode calls are answered in voicemail mode with each owner's greeting until it recovers.",
      );
    }
    expect(mailsTo('gone@example.co.uk')).toEqual([]);
    const engines = await admin.get('/api/admin/engines');
    expect(engines.status).toBe(200);
    expect(engines.body.agentGuard).toMatchObject({ state: 'closed', p50Ms: 2600, limitMs: 2000 });
    expect(Date.parse(engines.body.agentGuard.since)).toBeGreaterThan(Date.now() - 60_000);

    // Calls in progress keep measuring slow: the episode is still the same one.
    feed(guard, 3000, 5);
    // New agent-mode calls: 4 refused (Hale, Acme, Hale, Acme), the 5th let through as a trial (Quiet).
    expect([hale, acme, hale, acme, quietOwner].map((o) => guard.admitNew(o.id))).toEqual([false, false, false, false, true]);
    await waitUntil(() => expect(guardMails()).toHaveLength(4), 20_000);
    await agentGuard.settled();
    const [toHale] = mailsTo('calls@hale.example.co.uk');
    expect(toHale!.mail.subject).toBe('Your assistant is paused for now');
    expect(toHale!.mail.text).toContain(
      'Your assistant is paused: this box is answering too slowly, so your callers hear your greeting and leave a message. Nothing is lost; it will resume by itself.',
    );
    expect(mailsTo('acme@example.co.uk')).toHaveLength(1);
    expect(mailsTo('hale@example.co.uk')).toEqual([]); // the owner's call e-mail address, not the login
    expect(mailsTo('quiet@example.co.uk')).toEqual([]); // its call got the assistant

    // Fast again: the trial's turns reopen the guard; the admins hear once that it recovered.
    feed(guard, 600, 5);
    expect(guard.closed).toBe(true); // 5 fast against the 5 slow since closing: a median of 1.8 s
    guard.record(600);
    expect(guard.closed).toBe(false);
    await waitUntil(() => expect(guardMails()).toHaveLength(6), 20_000);
    for (const to of [ADMIN.email, second.email]) {
      const back = mailsTo(to).filter((r) => r.mail.subject === 'Agent mode is back on node-a');
      expect(back).toHaveLength(1);
      expect(back[0]!.mail.text).toContain('Agent mode is back on node-a: the assistant starts answering in 0.6 s again');
    }
    feed(guard, 600, 10);
    expect(guard.admitNew(hale.id)).toBe(true);
    await agentGuard.settled();
    expect(guardMails()).toHaveLength(6);
    expect((await admin.get('/api/admin/engines')).body.agentGuard).toMatchObject({ state: 'open', limitMs: 2000, since: expect.any(String) });
  });

  it('a mail the relay refuses does not stop the next notices', async () => {
    const guard = guardOf(server);
    const owner = await insertUser(server.database.db, { email: 'later@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Later Ltd' });
    const before = guardMails().length;
    smtp.refuseNext(550, 'mailbox unavailable');
    feed(guard, 2600, 20);
    expect(guard.admitNew(owner.id)).toBe(false);
    await server.services.agentGuard.settled();
    // Of the two admins' mails one was refused; the other and the owner's went out.
    expect(guardMails().length - before).toBe(2);
    expect(mailsTo('later@example.co.uk')).toHaveLength(1);
  });
});

describe('a slow mail relay never holds up the guard', () => {
  let server: TestServer;
  const sent: MailMessage[] = [];
  let release!: () => void;
  const relayUp = new Promise<void>((r) => (release = r));
  beforeAll(async () => {
    const mailer = { send: async (m: MailMessage) => void (await relayUp, sent.push(m)), close: () => {} };
    server = await startTestServer({ env: ENV, mailer });
    await signInAdmin(server);
  });
  afterAll(async () => {
    release();
    await server?.close();
  });

  it('closes, refuses and reports its state while the relay is stuck, and the notices follow once it answers', async () => {
    const owner = await insertUser(server.database.db, { email: 'stuck@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Stuck Ltd' });
    const guard = guardOf(server);
    feed(guard, 2600, 20);
    expect(guard.closed).toBe(true);
    expect(guard.admitNew(owner.id)).toBe(false);
    expect(server.services.agentGuard.state()).toMatchObject({ state: 'closed', p50Ms: 2600 });
    expect(sent).toEqual([]);
    release();
    await server.services.agentGuard.settled();
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      [ADMIN.email, 'Agent mode is paused on node-a'],
      ['stuck@example.co.uk', 'Your assistant is paused for now'],
    ]);
  });
});
