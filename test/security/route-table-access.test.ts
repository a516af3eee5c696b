import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { tablesOf } from '../../core/db/schema.js';
import { inviteStaff } from '../../core/team/invite.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 22 item 3 (default deny on /api) and issue 24 item 5 (the session before the body):
// every route the server holds, walked from Fastify's own route table, so a route added later
// is covered without being named here.

/** The only /api routes a signed-out caller may reach: the sign-in pages', the meta, Twilio's and Stripe's two webhooks each (signed by them instead) and the booking feed (its token is the key). */
const PUBLIC = new Set([
  'GET /api/meta',
  'GET /api/auth/me',
  'POST /api/auth/signup',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/twilio/messages',
  'POST /api/twilio/message-status',
  // Stripe's webhooks (issue 59): public, authenticated by Stripe's signature over the raw body (core/payments/webhooks).
  'POST /api/stripe/webhooks/billing',
  'POST /api/stripe/webhooks/deposits/:userId',
  // The owner's private booking feed: a calendar app fetches it with the secret token in the address (core/booking/routes.ts).
  'GET /api/booking/feed/:token',
  // A booking's .ics link in the caller's confirmation text: a signed reference to that one booking.
  'GET /api/booking/event/:token',
]);

/**
 * What a staff member's own sign-in may call (issue 58), and what each answers here (ids that
 * are nobody's, bodies that do not parse): named here rather than imported from
 * core/team/staff-scope.ts, so a route opened to staff by mistake fails this test.
 */
const STAFF_ALLOWED = new Map([
  ['POST /api/auth/change-password', 400],
  ['GET /api/call-logs', 200],
  ['GET /api/call-logs/:id', 404],
  ['GET /api/call-logs/:id/recording', 404],
  ['PATCH /api/call-logs/:id/called-back', 400],
  // Issue 56: the call-back tracker, for the calls in their view.
  ['GET /api/call-backs', 200],
  ['POST /api/call-backs/:id/cancel', 400],
  ['POST /api/call-backs/:id/take', 400],
  ['GET /api/user/bookings', 200],
  ['GET /api/user/caller-texts', 200],
  ['GET /api/user/caller-texts/thread', 400],
  ['GET /api/unanswered-questions', 200],
  ['PATCH /api/unanswered-questions/:id/resolve', 400],
  // Push alerts on their own phone (issue 54): their own devices; the owner's delayed text is not theirs.
  ['GET /api/user/push/key', 200],
  ['GET /api/user/push/devices', 200],
  ['POST /api/user/push/devices', 400],
  ['PATCH /api/user/push/devices/:id', 400],
  ['DELETE /api/user/push/devices/:id', 400],
  ['POST /api/user/push/alerts/:alertId/opened', 400],
  // The Live page (issue 54): the calls in their view; End call, Listen and Take over on those.
  ['GET /api/live/calls', 200],
  ['GET /api/live/events', 200],
  ['POST /api/live/calls/:id/end', 400],
  ['POST /api/live/calls/:id/listen', 400],
  ['POST /api/live/calls/:id/take-over', 400],
]);

interface Route {
  method: string;
  url: string;
}

/** Fastify's route tree (printRoutes) flattened: each line is a path segment under its parent and the methods it answers. */
function routeTable(printed: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const url = stack.join('');
    for (const method of m[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}

let server: TestServer;
let routes: Route[];
let customerCookie: string;
let staffCookie: string;
beforeAll(async () => {
  server = await startTestServer();
  routes = routeTable(server.app.printRoutes({ commonPrefix: false })).filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
  const owner = await activeCustomer(server);
  customerCookie = owner.client.cookie!;
  staffCookie = await staffSession(owner.user.id);
});

/** A staff member of that business signed in with their own login, their password set from the invitation's token. */
async function staffSession(ownerId: number): Promise<string> {
  const db = server.database.db;
  const { staff } = tablesOf(db);
  const member = (await db.insert(staff).values({ userId: ownerId, name: 'Sarah', otherNames: [], position: 1 }).returning())[0]!;
  const { token } = await inviteStaff(db, ownerId, member.id, 'staff-guard@example.co.uk', new Date());
  const client = new ApiClient(server.url);
  const reset = await client.post('/api/auth/reset-password', { token, newPassword: 'Staff-Pass-1', confirmPassword: 'Staff-Pass-1' });
  if (reset.status !== 200) throw new Error(`setting the staff password failed: ${reset.status} ${reset.text}`);
  const login = await client.post('/api/auth/login', { email: 'staff-guard@example.co.uk', password: 'Staff-Pass-1' });
  if (login.status !== 200) throw new Error(`staff login failed: ${login.status} ${login.text}`);
  const linked = (await db.select().from(staff).where(eq(staff.id, member.id)))[0]!;
  if (linked.loginUserId !== login.body.user.id) throw new Error('the staff login is not the member\'s');
  return client.cookie!;
}
afterAll(() => server.close());

const key = (r: Route) => `${r.method} ${r.url}`;
const guarded = () => routes.filter((r) => !PUBLIC.has(key(r)));
const admin = () => routes.filter((r) => r.url.startsWith('/api/admin/'));

/** The route with its parameters filled in and, where a body can go, JSON that does not parse. */
async function call(r: Route, cookie?: string) {
  const hasBody = r.method !== 'GET';
  const res = await fetch(server.url + r.url.replace(/:\w+/g, '1'), {
    method: r.method,
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
    ...(hasBody ? { body: '{"not json' } : {}),
  });
  // A stream let through (the Live page's events) never ends by itself: its status is the answer.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, message: undefined };
  }
  return { status: res.status, message: ((await res.json()) as { message?: string }).message };
}

describe('the /api route table', () => {
  it('is read whole: owner, admin and public routes are all there', () => {
    expect(routes.length).toBeGreaterThan(35);
    expect(routes).toContainEqual({ method: 'PATCH', url: '/api/user/settings' });
    expect(routes).toContainEqual({ method: 'POST', url: '/api/admin/approvals/:id/approve' });
    expect(routes).toContainEqual({ method: 'PATCH', url: '/api/unanswered-questions/:id/add-to-kb' });
    // The owner's website and its drafts (issue 55): owner only, so in the staff 403 walk below.
    for (const r of ['GET /api/knowledge/website', 'PUT /api/knowledge/website', 'DELETE /api/knowledge/website', 'POST /api/knowledge/website/crawl', 'POST /api/knowledge/drafts/:id/approve', 'POST /api/knowledge/drafts/:id/reject', 'POST /api/knowledge/drafts/approve-all', 'POST /api/knowledge/drafts/reject-all']) {
      expect(routes.map(key)).toContain(r);
    }
    // The operator's billing (issue 59): the owner's plan (owner only, so in the staff 403 walk) and the admin's figures (admin only).
    // …and the owner's own Stripe account for deposits: owner only too.
    for (const r of ['GET /api/user/billing', 'POST /api/user/billing/checkout', 'POST /api/user/billing/cancel', 'POST /api/user/billing/resume', 'GET /api/admin/billing', 'GET /api/user/payments/stripe', 'PUT /api/user/payments/stripe', 'DELETE /api/user/payments/stripe', 'POST /api/user/payments/stripe/test']) {
      expect(routes.map(key)).toContain(r);
    }
    // Push alerts (issue 54): the devices' routes (open to staff, above) and the owner's delayed text (owner only).
    for (const r of ['GET /api/user/push/key', 'GET /api/user/push/devices', 'POST /api/user/push/devices', 'PATCH /api/user/push/devices/:id', 'DELETE /api/user/push/devices/:id', 'PUT /api/user/push/settings', 'POST /api/user/push/alerts/:alertId/opened']) {
      expect(routes.map(key)).toContain(r);
    }
    // Every public route named above is still served (a stale list would hide nothing, but mislead).
    expect(routes.map(key).filter((k) => PUBLIC.has(k)).sort()).toEqual([...PUBLIC].sort());
  });

  it('answers 401 to a signed-out caller on every route that is not public, before reading the body', async () => {
    const answers = await Promise.all(guarded().map(async (r) => `${key(r)} → ${(await call(r)).status}`));
    expect(answers).toEqual(guarded().map((r) => `${key(r)} → 401`));
    expect(await call({ method: 'PATCH', url: '/api/user/settings' })).toEqual({ status: 401, message: 'Please log in to continue.' });
  });

  it('answers 403 to a signed-in customer on every admin route, before reading the body', async () => {
    expect(admin().length).toBeGreaterThan(8);
    const answers = await Promise.all(admin().map(async (r) => `${key(r)} → ${JSON.stringify(await call(r, customerCookie))}`));
    expect(answers).toEqual(admin().map((r) => `${key(r)} → ${JSON.stringify({ status: 403, message: 'Administrators only.' })}`));
  });

  it('answers 403 to a staff sign-in on every route not open to staff (default deny), admin routes included, before reading the body', async () => {
    const closed = guarded().filter((r) => !STAFF_ALLOWED.has(key(r)));
    expect(closed.length).toBeGreaterThan(35);
    const answers = await Promise.all(closed.map(async (r) => `${key(r)} → ${JSON.stringify(await call(r, staffCookie))}`));
    expect(answers).toEqual(closed.map((r) => `${key(r)} → ${JSON.stringify({ status: 403, message: 'Only the business owner can do that.' })}`));
  });

  it('lets a staff sign-in through to the routes open to staff', async () => {
    // Every route named open is still served.
    expect(routes.map(key).filter((k) => STAFF_ALLOWED.has(k)).sort()).toEqual([...STAFF_ALLOWED.keys()].sort());
    const open = routes.filter((r) => STAFF_ALLOWED.has(key(r)));
    const answers = await Promise.all(open.map(async (r) => `${key(r)} → ${(await call(r, staffCookie)).status}`));
    expect(answers).toEqual(open.map((r) => `${key(r)} → ${STAFF_ALLOWED.get(key(r))}`));
  });
});
