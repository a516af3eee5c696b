import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sqliteOf } from '../../core/db/client.js';

/**
 * Whatever a client sends, the API answers a clear 4xx with a message (or succeeds),
 * never a 500, and a refused request changes nothing that is stored.
 */
let server: TestServer;
let customer: ApiClient;
let admin: ApiClient;
let targetId: number;

beforeAll(async () => {
  server = await startTestServer();
  customer = (await activeCustomer(server)).client;
  const target = await activeCustomer(server);
  targetId = target.user.id;
  admin = await signInAdmin(server);
});
afterAll(() => server.close());

/** A fingerprint of everything stored, to prove a refused request wrote nothing. */
function snapshot(): string {
  const db = sqliteOf(server.database);
  return ['users', 'phone_numbers', 'calls', 'unanswered_questions', 'audit_log', 'call_handling']
    .map((t) => JSON.stringify(db.prepare(`select * from ${t} order by rowid`).all()))
    .join('|');
}

// Values of every JSON shape, biased towards the fields the API knows.
const field = fc.constantFrom(
  'email', 'password', 'businessName', 'businessEmail', 'businessPhone', 'industry', 'weeklyCustomerCalls',
  'addressLine1', 'addressLine2', 'city', 'postcode', 'country', 'callGreeting', 'voicePreference', 'aiMode',
  'knowledgeBase', 'notificationNumber', 'smsEnabled', 'whatsappEnabled', 'accountStatus', 'trialExpiresAt',
  'token', 'newPassword', 'confirmPassword', 'currentPassword', 'answer', '__proto__', 'constructor',
  // Call handling (issue 16).
  'transferNumber', 'transferTimeoutSeconds', 'hoursEnabled', 'hours', 'holidayNations', 'openRingFirst',
  'closedMode', 'closedRingFirst', 'closedGreeting', 'blockList', 'vipList', 'withheld', 'number',
);
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', 'agent', 'male', 'active', 'suspended', 'rejected', 'plumbing', '0-10', 'SW1A 1AA', '+447700900123', '2026-13-45', 'x'.repeat(2000), 'refuse', 'scotland', '09:00'),
  fc.constantFrom({ mon: [{ open: '09:00', close: '08:00' }] }, { sun: [{ open: '25:00', close: '26:00' }] }, ['07700 900123', 'nope'], ['scotland', 'wales']),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
const body = fc.oneof(
  fc.dictionary(field, value, { maxKeys: 6 }),
  fc.anything({ maxDepth: 2 }),
);

const targets: { name: string; method: string; path: () => string; who: () => ApiClient | null }[] = [
  { name: 'login', method: 'POST', path: () => '/api/auth/login', who: () => null },
  { name: 'signup', method: 'POST', path: () => '/api/auth/signup', who: () => null },
  { name: 'forgot-password', method: 'POST', path: () => '/api/auth/forgot-password', who: () => null },
  { name: 'reset-password', method: 'POST', path: () => '/api/auth/reset-password', who: () => null },
  { name: 'change-password', method: 'POST', path: () => '/api/auth/change-password', who: () => customer },
  { name: 'settings', method: 'PATCH', path: () => '/api/user/settings', who: () => customer },
  { name: 'admin user patch', method: 'PATCH', path: () => `/api/admin/users/${targetId}`, who: () => admin },
  { name: 'call handling', method: 'PUT', path: () => '/api/user/call-handling', who: () => customer },
  { name: 'block list entry', method: 'POST', path: () => '/api/user/call-handling/block', who: () => customer },
  { name: 'VIP list entry', method: 'DELETE', path: () => '/api/user/call-handling/vip', who: () => customer },
];

describe.each(targets)('$method $name with arbitrary bodies', ({ method, path, who }) => {
  it('never answers 5xx; refusals carry a message and change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = snapshot();
        const client = who();
        const res = client
          ? await client.request(method, path(), b)
          : await fetch(server.url + path(), {
              method,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(b),
            }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => undefined) }));
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.body?.message).toBe('string');
          expect(res.body.message.length).toBeGreaterThan(0);
          if (res.status !== 429) expect(snapshot()).toBe(before);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('arbitrary path parameters', () => {
  it('admin ids that are not ids get a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 30 }), async (raw) => {
        const id = encodeURIComponent(raw);
        for (const [m, p] of [
          ['PATCH', `/api/admin/users/${id}`],
          ['DELETE', `/api/admin/users/${id}`],
          ['POST', `/api/admin/approvals/${id}/approve`],
        ] as const) {
          const before = snapshot();
          const res = await admin.request(m, p, m === 'PATCH' ? { accountStatus: 'active' } : undefined);
          expect(res.status).toBeLessThan(500);
          // A real customer's id is a legitimate target; anything refused must change nothing.
          if (res.status >= 400) expect(snapshot()).toBe(before);
          // Accepted only when it reads as a whole number from 1, as the route's integer schema
          // coerces it (Ajv, as JavaScript reads numbers: ' 1' and '0x1' are id 1; a CI run's
          // fuzzing found ' 1'). Stricter ids (digits only) are left open: see the closing note.
          else expect(Number.isInteger(Number(raw)) && Number(raw) >= 1, raw).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  });
});
