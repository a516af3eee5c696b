// Issue 38 item 1: transaction() gives a body the same guarantee on PostgreSQL as on SQLite
// (where one connection takes bodies in turn): check-then-write bodies run as if one after the
// other, also when two cores on one database run them at the same moment. Two cores here are
// two app servers, each with its own pool, on one PostgreSQL database.
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertUser } from '../../core/accounts/users.js';
import { createSession, SESSION_COOKIE } from '../../core/auth/sessions.js';
import { tablesOf } from '../../core/db/schema.js';
import { ApiClient } from '../helpers/client.js';
import { signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { createPipeline, DID, FAST, startHarness, type Harness, type Pipeline } from '../pipeline/harness.js';

const postgres = usePostgres();
const PAIRS = 20;
let h: Harness | undefined;
const servers: TestServer[] = [];
const pipelines: Pipeline[] = [];

afterEach(async () => {
  for (const p of pipelines.splice(0)) await p.stop();
  for (const s of servers.splice(0)) await s.close();
  await h?.close();
  h = undefined;
});

/** An active owner with a session, without argon2 (40 of them would cost the shared machine seconds of CPU). */
async function owner(server: TestServer, tag: string): Promise<{ id: number; on: (s: TestServer) => ApiClient }> {
  const { db } = server.database;
  const user = await insertUser(db, {
    email: `${tag}-${Math.random().toString(36).slice(2)}@example.co.uk`,
    passwordHash: 'not-used',
    accountStatus: 'active',
    businessName: `Business ${tag}`,
  });
  const session = await createSession(db, user.id, new Date());
  return {
    id: user.id,
    on(s) {
      const client = new ApiClient(s.url);
      client.cookie = `${SESSION_COOKIE}=${session.id}`;
      return client;
    },
  };
}

describe('transaction() on PostgreSQL with two cores', () => {
  it(`${PAIRS} pairs of calls from one number finishing at the same moment: exactly one repeat-caller alert per pair`, async () => {
    const repeatCaller = { calls: 2, windowMinutes: 5 };
    const url = await postgres().createDatabase({ migrated: true });
    h = await startHarness({ start: false, env: { DATABASE_URL: url }, options: { repeatCaller } });
    const other = await startTestServer({
      env: { DATABASE_URL: url, TWILIO_ACCOUNT_SID: h.twilio.accountSid, TWILIO_AUTH_TOKEN: h.twilio.authToken, TWILIO_API_BASE: h.twilio.url },
    });
    servers.push(other);
    const db = h.server.database.db;
    const { calls, jobs } = tablesOf(db);
    const at = new Date();
    const callers = Array.from({ length: PAIRS }, (_, i) => `+447700900${String(500 + i)}`);
    // Both calls of a pair ended in the same instant: each one's job counts two calls in the window.
    const rows = await db
      .insert(calls)
      .values(callers.flatMap((fromNumber) => [0, 1].map(() => ({ userId: h!.ownerId, fromNumber, toNumber: DID, status: 'missed' as const, mode: 'voicemail' as const, duration: 0, createdAt: at, endedAt: at }))))
      .returning();
    for (const row of rows) await h.pipeline.enqueuePostCall(row.id);
    // Each core runs two jobs at once; a pair's jobs are next to each other in the queue.
    const second = createPipeline(other.services, {}, { ...FAST, repeatCaller });
    pipelines.push(second);
    h.pipeline.start();
    second.start();

    const done = async () => (await db.select({ id: jobs.id }).from(jobs).where(and(like(jobs.key, 'post-call:%'), eq(jobs.status, 'done')))).length;
    await vi.waitFor(async () => expect(await done()).toBe(rows.length), { timeout: 120_000, interval: 100 });

    const alertsTo = (caller: string) => h!.twilio.messages.filter((m) => m.body.startsWith(`${caller} has called 2 times in 5 minutes`));
    expect(callers.map((c) => [c, alertsTo(c).length])).toEqual(callers.map((c) => [c, 1]));
    const flagged = await db.select({ from: calls.fromNumber }).from(calls).where(and(inArray(calls.id, rows.map((r) => r.id)), eq(calls.repeatAlert, true)));
    expect(flagged.map((r) => r.from).sort()).toEqual([...callers].sort());
  }, 240_000);

  it(`${PAIRS} pairs of owners buying at the same moment on two cores get different numbers; one owner clicking on both gets one`, async () => {
    const url = await postgres().createDatabase({ migrated: true });
    const dids = Array.from({ length: PAIRS * 2 + 5 }, (_, i) => `+447700901${String(i).padStart(3, '0')}`);
    const env = { DATABASE_URL: url, NUMBER_PROVIDER: 'static', STATIC_NUMBERS: dids.join(',') };
    const [a, b] = [await startTestServer({ env }), await startTestServer({ env })];
    const { phoneNumbers } = tablesOf(a.database.db);
    servers.push(a, b);
    // The admin's list records every DID as a row first, so each purchase updates a row both cores read.
    expect((await (await signInAdmin(a)).get('/api/admin/static-numbers')).status).toBe(200);

    const told = new Map<number, string>();
    for (let i = 0; i < PAIRS; i++) {
      const [x, y] = [await owner(a, `x${i}`), await owner(a, `y${i}`)];
      const [onA, onB] = await Promise.all([x.on(a).post('/api/phone-numbers/purchase'), y.on(b).post('/api/phone-numbers/purchase')]);
      expect([onA.status, onB.status]).toEqual([201, 201]);
      expect(onA.body.number.phoneNumber).not.toBe(onB.body.number.phoneNumber);
      told.set(x.id, onA.body.number.phoneNumber);
      told.set(y.id, onB.body.number.phoneNumber);
    }
    const assigned = await a.database.db.select().from(phoneNumbers).where(inArray(phoneNumbers.userId, [...told.keys()]));
    expect(new Map(assigned.map((r) => [r.userId!, r.phoneNumber]))).toEqual(told);

    for (let i = 0; i < 5; i++) {
      const z = await owner(a, `z${i}`);
      const [onA, onB] = await Promise.all([z.on(a).post('/api/phone-numbers/purchase'), z.on(b).post('/api/phone-numbers/purchase')]);
      expect([onA.status, onB.status].sort()).toEqual([200, 201]);
      expect(onA.body.number.phoneNumber).toBe(onB.body.number.phoneNumber);
      expect(await a.database.db.select().from(phoneNumbers).where(eq(phoneNumbers.userId, z.id))).toHaveLength(1);
    }
  }, 240_000);
});
