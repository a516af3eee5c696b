// The weekly "to call back" e-mail through a real SMTP server, with the server's clock set by
// hand: due at Monday 08:00 London in both GMT and BST, mailed once across a restart, caught up
// when the box was down at 08:00, and never sent to an owner with nobody to call back.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { insertUser } from '../../core/accounts/users.js';
import { type Call } from '../../core/db/schema.js';
import { calls, weeklyDigests } from '../helpers/tables.js';
import { startWeeklyDigest, type WeeklyDigest } from '../../core/digest/schedule.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startSmtpServer, type SmtpDouble } from '../helpers/smtp.js';
import { waitUntil } from '../helpers/wait.js';

const PUBLIC_URL = 'https://calls.example.co.uk';
let server: TestServer | undefined;
let smtp: SmtpDouble | undefined;
const digests: WeeklyDigest[] = [];

afterEach(async () => {
  for (const d of digests.splice(0)) await d.stop();
  await server?.close();
  await smtp?.close();
  server = smtp = undefined;
});

async function start(at: string) {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
  setClock(at);
  return server;
}
function setClock(iso: string) {
  server!.clock.offsetMs = Date.parse(iso) - Date.now();
}
/** Starts the digest as the core does at boot (which runs the catch-up pass) and waits for that pass. */
async function boot(): Promise<WeeklyDigest> {
  const d = startWeeklyDigest(server!.services);
  digests.push(d);
  await d.run(); // joins the pass started at boot: one pass at a time
  return d;
}
async function owner(email: string, status: 'active' | 'expired' = 'active', summaryEmail: string | null = null) {
  return (await insertUser(server!.database.db, { email, passwordHash: 'x', accountStatus: status, businessName: 'Acme Plumbing', summaryEmail })).id;
}
async function call(userId: number, iso: string, set: Partial<Call> = {}) {
  return (await server!.database.db
    .insert(calls)
    .values({ userId, fromNumber: '+447700900123', toNumber: '+447700900001', status: 'missed', createdAt: new Date(iso), ...set })
    .returning())[0]!.id;
}
const rows = async () => await server!.database.db.select().from(weeklyDigests);

describe('weekly call-back digest', () => {
  it('mails at Monday 08:00 with counts by day, and neither again nor skipped across a restart', async () => {
    await start('2027-01-11T07:59:00Z'); // Monday 07:59 GMT
    const id = await owner('owner@example.co.uk');
    const tue = await call(id, '2027-01-05T09:15:00Z');
    await call(id, '2027-01-05T16:40:00Z', { status: 'voicemail' });
    const sun = await call(id, '2027-01-10T23:30:00Z');
    await call(id, '2027-01-11T07:00:00Z'); // this week: next Monday's digest

    const early = await boot();
    expect((await early.run()).due).toBe(false);
    expect(smtp!.received).toHaveLength(0);

    setClock('2027-01-11T08:00:00Z');
    expect(await early.run()).toEqual({ weekOf: '2027-01-11', sent: 1, due: true });
    await early.stop();

    // The process restarts the same morning: the boot pass finds the week's digest claimed.
    setClock('2027-01-11T09:30:00Z');
    const restarted = await boot();
    expect((await restarted.run()).sent).toBe(0);
    expect(smtp!.received).toHaveLength(1);
    expect(await rows()).toMatchObject([{ userId: id, weekOf: '2027-01-11', status: 'sent', calls: 3 }]);

    const { to, mail } = smtp!.received[0]!;
    expect(to).toEqual(['owner@example.co.uk']);
    expect(mail.subject).toBe('3 callers still to call back from last week');
    expect(mail.text).toContain('Last week (Monday 4 January to Sunday 10 January) 3 callers who left a voicemail or rang off have not been called back yet.');
    expect(mail.text).toContain('By day:\n  Mon 04/01  0\n  Tue 05/01  2\n  Wed 06/01  0\n  Thu 07/01  0\n  Fri 08/01  0\n  Sat 09/01  0\n  Sun 10/01  1\n');
    expect(mail.text).toContain(`  Tue 05/01 09:15  +44 770 090 0123  missed call (call ${tue})\n    ${PUBLIC_URL}/dashboard?call=${tue}`);
    expect(mail.text).toContain(`  Sun 10/01 23:30  +44 770 090 0123  missed call (call ${sun})`);
    expect(mail.html).toContain(`<a href="${PUBLIC_URL}/dashboard?call=${sun}" style="color:#2563eb">Call ${sun}</a>`);
    expect(mail.html).toContain('<td style="padding:4px 12px 4px 0;border-bottom:1px solid #e2e8f0;text-align:right">2</td>');
    expect(mail.text).toContain('You can turn this weekly e-mail off under Notification Settings.');
  });

  it('is scheduled by node-cron for the next Monday at 08:00 London time', async () => {
    await start('2027-01-11T07:00:00Z');
    const next = (await boot()).nextRun();
    expect(next).toBeInstanceOf(Date);
    // From the real clock (node-cron's), read in London by the platform's time-zone database.
    const london = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(next!);
    expect(london).toBe('Monday 08:00');
    expect(next!.getTime()).toBeGreaterThan(Date.now());
    expect(next!.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
  });

  it('catches up this week\'s digest at start when the box was down at 08:00, but not a week it missed entirely', async () => {
    await start('2027-01-13T14:00:00Z'); // Wednesday: the box was off on Monday
    const id = await owner('owner@example.co.uk');
    await call(id, '2027-01-08T10:00:00Z');
    await call(id, '2027-01-12T10:00:00Z'); // this week's call, for next Monday

    await boot();
    await waitUntil(() => expect(smtp!.received).toHaveLength(1), 10_000);
    expect(smtp!.received[0]!.mail.text).toContain('Fri 08/01  1');

    // Down from Sunday until the next Monday 07:00: that week's digest is not due yet, and the
    // one before is not sent again.
    setClock('2027-01-18T07:00:00Z');
    expect(await (await boot()).run()).toEqual({ weekOf: '2027-01-18', sent: 0, due: false });
    expect(smtp!.received).toHaveLength(1);
  });

  it('is due at 08:00 BST (07:00 UTC) after the clocks go forward, with Sunday\'s 23 hours counted in London time', async () => {
    await start('2027-03-29T06:59:00Z'); // Monday 07:59 BST
    const id = await owner('owner@example.co.uk');
    await call(id, '2027-03-28T00:30:00Z'); // Sunday 00:30 GMT
    await call(id, '2027-03-28T22:30:00Z'); // Sunday 23:30 BST
    await call(id, '2027-03-28T23:30:00Z'); // Monday 00:30 BST: this week
    await call(id, '2027-03-21T23:30:00Z'); // Sunday 21 March: the week before

    const d = await boot();
    expect(smtp!.received).toHaveLength(0);
    setClock('2027-03-29T07:00:00Z');
    expect((await d.run()).sent).toBe(1);
    expect(smtp!.received[0]!.mail.subject).toBe('2 callers still to call back from last week');
    expect(smtp!.received[0]!.mail.text).toContain('  Sat 27/03  0\n  Sun 28/03  2\n');
    expect(smtp!.received[0]!.mail.text).toContain('Sun 28/03 23:30  +44 770 090 0123');
  });

  it('is due at 08:00 GMT (08:00 UTC) after the clocks go back, with Sunday\'s 25 hours counted in London time', async () => {
    await start('2027-11-01T07:30:00Z'); // Monday 07:30 GMT (08:30 had the clocks not changed)
    const id = await owner('owner@example.co.uk');
    await call(id, '2027-10-24T23:30:00Z'); // Monday 25 October 00:30 BST
    await call(id, '2027-10-31T00:30:00Z'); // Sunday 01:30 BST
    await call(id, '2027-10-31T23:30:00Z'); // Sunday 23:30 GMT

    const d = await boot();
    expect(smtp!.received).toHaveLength(0);
    setClock('2027-11-01T08:00:00Z');
    expect((await d.run()).sent).toBe(1);
    expect(smtp!.received[0]!.mail.text).toContain('By day:\n  Mon 25/10  1\n');
    expect(smtp!.received[0]!.mail.text).toContain('  Sun 31/10  2\n');
  });

  it('sends nothing to an owner with nobody to call back, nor to an inactive account', async () => {
    await start('2027-01-11T08:05:00Z');
    const quiet = await owner('quiet@example.co.uk');
    await call(quiet, '2027-01-06T10:00:00Z', { status: 'answered' });
    await call(quiet, '2027-01-06T11:00:00Z', { calledBackAt: new Date('2027-01-06T12:00:00Z') });
    await call(quiet, '2027-01-06T12:00:00Z', { fromNumber: '' }); // withheld: nobody to ring
    await call(quiet, '2027-01-06T12:30:00Z', { fromNumber: 'anonymous' }); // withheld, as the PBX stores it
    await call(quiet, '2027-01-06T13:00:00Z', { callerTag: 'blocked' }); // turned away by the owner's rules
    await call(quiet, '2027-01-06T13:30:00Z', { status: 'voicemail', fromNumber: '+447700900001', testCall: true }); // the owner's own "Call my line"
    const expired = await owner('expired@example.co.uk', 'expired');
    await call(expired, '2027-01-06T10:00:00Z');
    const busy = await owner('busy@example.co.uk', 'active', 'office@busy.co.uk');
    await call(busy, '2027-01-06T10:00:00Z');

    await boot();
    // To the owner's address for call e-mails when they set one.
    expect(smtp!.received.map((m) => m.to)).toEqual([['office@busy.co.uk']]);
    expect(smtp!.received[0]!.mail.subject).toBe('1 caller still to call back from last week');
    expect((await rows()).map((r) => r.userId)).toEqual([busy]);
  });

  it('sends nothing to an owner who turned the digest off in Notification Settings, and mails them again once it is back on', async () => {
    await start('2027-01-11T08:05:00Z');
    const { client, user, email } = await activeCustomer(server!);
    await call(user.id, '2027-01-06T10:00:00Z');
    const saved = await client.request('PATCH', '/api/user/settings', { weeklyDigestEnabled: false });
    expect(saved.status).toBe(200);
    expect(saved.body.user.weeklyDigestEnabled).toBe(false);

    // Approval mailed the owner already: count only digests.
    const mailed = () => smtp!.received.filter((m) => m.mail.subject?.endsWith('still to call back from last week'));
    const d = await boot();
    expect(mailed()).toHaveLength(0);
    expect(await rows()).toEqual([]);

    await client.request('PATCH', '/api/user/settings', { weeklyDigestEnabled: true });
    expect(await d.run()).toMatchObject({ sent: 1 });
    expect(mailed().map((m) => m.to)).toEqual([[email.toLowerCase()]]);
  });

  it('gives the week back when the relay says "try later" and mails it once on the next pass', async () => {
    await start('2027-01-11T08:00:00Z');
    const id = await owner('owner@example.co.uk');
    await call(id, '2027-01-06T10:00:00Z');
    smtp!.refuseNext(451, 'Try again later');
    const d = await boot();
    expect(await rows()).toHaveLength(0);
    expect(smtp!.received).toHaveLength(0);
    expect((await d.run()).sent).toBe(1);
    expect((await d.run()).sent).toBe(0);
    expect(smtp!.received).toHaveLength(1);
    expect((await server!.database.db.select().from(weeklyDigests).where(eq(weeklyDigests.userId, id)).limit(1))[0]!.status).toBe('sent');
  });

  it('does not retry a digest the relay refused for good (550)', async () => {
    await start('2027-01-11T08:00:00Z');
    const id = await owner('owner@example.co.uk');
    await call(id, '2027-01-06T10:00:00Z');
    smtp!.refuseNext(550, 'No such mailbox');
    const d = await boot();
    expect((await d.run()).sent).toBe(0);
    expect(smtp!.received).toHaveLength(0);
    expect(await rows()).toMatchObject([{ userId: id, status: 'failed', error: expect.stringContaining('No such mailbox') }]);
  });
});
