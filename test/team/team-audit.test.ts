import { asc, gt, like, and } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { ownerMember } from '../../core/team/store.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startSmtpServer, type SmtpDouble } from '../helpers/smtp.js';
import { waitUntil } from '../helpers/wait.js';

// Issue 58: the owner's changes to who may sign in for the business are in the audit log, one
// entry per change, written with the change; a refused change writes none. SQLite and
// (npm run test:postgres) PostgreSQL.

const PUBLIC_URL = 'https://calls.example.co.uk';

let smtp: SmtpDouble;
let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
const ids = { owner: 0, sarah: 0, tom: 0, priya: 0 };

const db = () => server.database.db;

async function addMember(ownerId: number, name: string, position: number): Promise<number> {
  const { staff } = tablesOf(db());
  return (await db().insert(staff).values({ userId: ownerId, name, otherNames: [], position }).returning({ id: staff.id }))[0]!.id;
}

/** The team's audit entries written after entry `afterId`, oldest first. */
async function teamEntriesAfter(afterId: number) {
  const { auditLog } = tablesOf(db());
  return db().select().from(auditLog).where(and(gt(auditLog.id, afterId), like(auditLog.action, 'team.%'))).orderBy(asc(auditLog.id));
}

/** The newest audit entry's id: what a step's entries are counted after. */
async function lastEntryId(): Promise<number> {
  const { auditLog } = tablesOf(db());
  const rows = await db().select({ id: auditLog.id }).from(auditLog);
  return rows.reduce((max, r) => Math.max(max, r.id), 0);
}

/** What one step wrote to the audit log about the team. */
async function entriesOf(step: () => Promise<{ status: number; text: string }>, status: number) {
  const before = await lastEntryId();
  const res = await step();
  expect(res.status, res.text).toBe(status);
  return teamEntriesAfter(before);
}

/** A staff member's own session, from the owner's invitation and the mailed link. */
async function staffSignIn(staffId: number, email: string): Promise<ApiClient> {
  const invite = await owner.client.post(`/api/user/team/${staffId}/invite`, { email });
  expect(invite.status, invite.text).toBe(200);
  const token = await waitUntil(() => {
    const text = [...smtp.received].reverse().find((m) => m.to.includes(email))?.mail.text ?? '';
    const found = new RegExp(`${PUBLIC_URL}/reset-password/([A-Za-z0-9_-]+)`).exec(text)?.[1];
    if (!found) throw new Error(`no invitation link to ${email} yet`);
    return found;
  }, 30_000);
  const reset = await new ApiClient(server.url).post('/api/auth/reset-password', { token, newPassword: 'Staff-Pass-1', confirmPassword: 'Staff-Pass-1' });
  expect(reset.status, reset.text).toBe(200);
  const client = new ApiClient(server.url);
  const login = await client.post('/api/auth/login', { email, password: 'Staff-Pass-1' });
  expect(login.status, login.text).toBe(200);
  return client;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
  owner = await activeCustomer(server, { businessName: 'Owner Ltd' });
  ids.owner = (await ownerMember(db(), owner.user.id)).id;
  ids.sarah = await addMember(owner.user.id, 'Sarah', 1);
  ids.tom = await addMember(owner.user.id, 'Tom', 2);
  ids.priya = await addMember(owner.user.id, 'Priya', 3);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe("the owner's changes to who may sign in are audited", () => {
  it('an invitation: one team.invite entry, the owner the actor, the member and address in it', async () => {
    const entries = await entriesOf(() => owner.client.post(`/api/user/team/${ids.sarah}/invite`, { email: 'sarah@example.co.uk' }), 200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'team.invite', actorUserId: owner.user.id, actorEmail: owner.email.toLowerCase(), targetEmail: 'sarah@example.co.uk',
      details: { staffId: ids.sarah, name: 'Sarah', email: 'sarah@example.co.uk' },
    });
    expect(entries[0]!.targetUserId).toEqual(expect.any(Number));
  });

  it('a change of view: one team.view entry with the old and new view; saving the same view or only a name, none', async () => {
    const changed = await entriesOf(() => owner.client.request('PUT', `/api/user/team/${ids.sarah}`, { view: 'everything' }), 200);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ action: 'team.view', actorUserId: owner.user.id, details: { staffId: ids.sarah, name: 'Sarah', from: 'own', to: 'everything' } });
    expect(await entriesOf(() => owner.client.request('PUT', `/api/user/team/${ids.sarah}`, { view: 'everything' }), 200)).toEqual([]);
    expect(await entriesOf(() => owner.client.request('PUT', `/api/user/team/${ids.sarah}`, { roleWord: 'stylist' }), 200)).toEqual([]);
  });

  it('taking a sign-in away: one team.revoke entry naming the address; with none left to take, none', async () => {
    const entries = await entriesOf(() => owner.client.delete(`/api/user/team/${ids.sarah}/invite`), 200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'team.revoke', actorUserId: owner.user.id, targetEmail: 'sarah@example.co.uk', details: { staffId: ids.sarah, name: 'Sarah', email: 'sarah@example.co.uk' } });
    expect(await entriesOf(() => owner.client.delete(`/api/user/team/${ids.sarah}/invite`), 200)).toEqual([]);
  });

  it('removing a member with a sign-in: one team.remove entry (not a revoke as well), naming their address', async () => {
    await owner.client.post(`/api/user/team/${ids.tom}/invite`, { email: 'tom@example.co.uk' });
    const entries = await entriesOf(() => owner.client.delete(`/api/user/team/${ids.tom}`), 200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'team.remove', actorUserId: owner.user.id, targetEmail: 'tom@example.co.uk', details: { staffId: ids.tom, name: 'Tom', email: 'tom@example.co.uk' } });
  });

  it('removing a member who never signed in: one team.remove entry without an address', async () => {
    const entries = await entriesOf(() => owner.client.delete(`/api/user/team/${ids.priya}`), 200);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'team.remove', targetUserId: null, details: { staffId: ids.priya, name: 'Priya' } });
    expect(entries[0]!.details).not.toHaveProperty('email');
  });
});

describe('a refused change leaves no entry', () => {
  it("the owner's 400s: inviting their own member, an address already in use, a view that is not one, removing the owner", async () => {
    expect(await entriesOf(() => owner.client.post(`/api/user/team/${ids.owner}/invite`, { email: 'me@example.co.uk' }), 400)).toEqual([]);
    expect(await entriesOf(() => owner.client.post(`/api/user/team/${ids.sarah}/invite`, { email: owner.email }), 400)).toEqual([]);
    expect(await entriesOf(() => owner.client.request('PUT', `/api/user/team/${ids.sarah}`, { view: 'all' }), 400)).toEqual([]);
    expect(await entriesOf(() => owner.client.delete(`/api/user/team/${ids.owner}`), 400)).toEqual([]);
  });

  it("a staff member's own session: every team change is refused (403) and nothing is recorded", async () => {
    const sarah = await staffSignIn(ids.sarah, 'sarah2@example.co.uk');
    expect(await entriesOf(() => sarah.request('PUT', `/api/user/team/${ids.sarah}`, { view: 'own' }), 403)).toEqual([]);
    expect(await entriesOf(() => sarah.post(`/api/user/team/${ids.owner}/invite`, { email: 'someone@example.co.uk' }), 403)).toEqual([]);
    expect(await entriesOf(() => sarah.delete(`/api/user/team/${ids.sarah}/invite`), 403)).toEqual([]);
    expect(await entriesOf(() => sarah.delete(`/api/user/team/${ids.sarah}`), 403)).toEqual([]);
  });
});
