// Seen, not heard (issue 43): screened calls are counted where the owner and the admin look: the
// weekly digest says how many were screened (and lists none of them to call back), analytics
// counts them over the chosen period, and the admin's usage shows the owner texts saved.
import { afterEach, describe, expect, it } from 'vitest';
import { insertUser } from '../../core/accounts/users.js';
import { type Call } from '../../core/db/schema.js';
import { calls } from '../helpers/tables.js';
import { startWeeklyDigest } from '../../core/digest/schedule.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startSmtpServer, type SmtpDouble } from '../helpers/smtp.js';

let server: TestServer | undefined;
let smtp: SmtpDouble | undefined;
afterEach(async () => {
  await server?.close();
  await smtp?.close();
  server = smtp = undefined;
});

const setClock = (iso: string) => (server!.clock.offsetMs = Date.parse(iso) - Date.now());
async function call(userId: number, iso: string, set: Partial<Call> = {}) {
  return (await server!.database.db.insert(calls).values({ userId, fromNumber: '+447700900123', toNumber: '+447700900001', status: 'missed', createdAt: new Date(iso), ...set }).returning())[0]!.id;
}

// Generous: on PostgreSQL on a loaded 2-core machine a fresh server and database take a while.
describe('screened calls counted', { timeout: 90_000 }, () => {
  it('the weekly digest says how many were screened and lists only the genuine callers', async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://calls.example.co.uk' } });
    setClock('2027-01-11T08:00:00Z');
    const id = (await insertUser(server.database.db, { email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Acme Plumbing' })).id;
    const genuine = await call(id, '2027-01-05T09:15:00Z', { status: 'voicemail', callClass: 'genuine' });
    const robot = await call(id, '2027-01-06T10:00:00Z', { status: 'voicemail', callClass: 'recorded', screenedBy: 'summary' });
    await call(id, '2027-01-07T11:00:00Z', { status: 'missed', screenedBy: 'box', fromNumber: '+447700900666' });
    const digest = startWeeklyDigest(server.services);
    try {
      await digest.run();
    } finally {
      await digest.stop();
    }
    expect(smtp.received).toHaveLength(1);
    const { mail } = smtp.received[0]!;
    expect(mail.subject).toBe('1 caller still to call back from last week');
    expect(mail.text).toContain(`(call ${genuine})`);
    expect(mail.text).not.toContain(`(call ${robot})`);
    expect(mail.text).toContain('2 nuisance calls were screened last week (sales calls, recorded messages, silent calls and wrong numbers): kept in your call log under Screened, not texted to you.');
  });

  it('analytics counts the owner\'s screened calls over the chosen period; usage shows the texts saved box-wide', async () => {
    server = await startTestServer();
    const me = await activeCustomer(server);
    const other = await activeCustomer(server);
    setClock('2026-10-31T12:00:00Z');
    await call(me.user.id, '2026-10-31T09:00:00Z', { screenedBy: 'summary', callClass: 'sales' });
    await call(me.user.id, '2026-10-20T09:00:00Z', { screenedBy: 'owner' });
    await call(me.user.id, '2026-09-20T09:00:00Z', { screenedBy: 'box' });
    await call(me.user.id, '2026-10-31T10:00:00Z', { status: 'voicemail', callClass: 'genuine' });
    await call(other.user.id, '2026-10-31T09:00:00Z', { screenedBy: 'summary', callClass: 'silent' });
    const screened = async (q = '') => (await me.client.get(`/api/analytics${q}`)).body.screenedCalls;
    expect(await screened('?period=7d')).toBe(1);
    expect(await screened('?period=month')).toBe(2);
    expect(await screened()).toBe(3);

    const admin = await signInAdmin(server);
    const provider = ((await (await fetch(`${server.url}/api/meta`)).json()) as { provider: string }).provider;
    const usage = await admin.get(`/api/admin/${provider}-usage`);
    expect(usage.status).toBe(200);
    // This London month (October): two of mine and the other business's one.
    expect(usage.body.textsSaved).toBe(3);
  });
});
