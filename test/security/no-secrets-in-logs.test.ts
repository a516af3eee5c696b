// Issue 39 M4: with SQLite's lock held by another process past the busy timeout, a sign-up,
// a password change and a knowledge-base save answered 500 and the log carried drizzle's
// DrizzleQueryError with the query's values: the e-mail, the phone, argon2id hashes and the
// knowledge base. Here known secrets and personal data go through every write path an owner
// has, once while the database is locked (every write fails) and once after, and every line
// the core's logger wrote is searched for them.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logging/logger.js';
import { activeCustomer, signupBody } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startLockHolder, type LockHolder } from '../helpers/lock-holder.js';
import { startTwilioDouble, type TwilioDouble } from '../doubles/twilio/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sqliteOf } from '../../core/db/client.js';

const OWNER = { email: 'zqleak.owner@plant-probe.example', phone: '07700 900731', password: 'Plant3d-Owner-Pass!' };
const SECOND = { email: 'zqleak.second@plant-probe.example', phone: '07700 900732', password: 'Plant3d-Second-Pass!' };
const NEW_PASSWORDS = ['Plant3d-New-Pass-1!', 'Plant3d-New-Pass-2!'];
const KNOWLEDGE = 'Zebracorn plumbing: we fix quixotic boilers on Thursdays.';
const TWILIO_TOKEN = 'f00dfacef00dfacef00dfacef00dface';
// The owner's mobile for texts, and one Twilio refuses (21211 names the number in its message).
const MOBILE = { typed: '+44 7700 900733', e164: '+447700900733' };
const REFUSED_MOBILE = { typed: '+44 7700 900734', e164: '+447700900734' };
const SUMMARY_EMAIL = 'zqleak.summaries@plant-probe.example';

/** Every planted value, in each spelling a log could carry it. */
const PLANTED = [
  OWNER.email,
  SECOND.email,
  OWNER.password,
  SECOND.password,
  ...NEW_PASSWORDS,
  'Zebracorn',
  TWILIO_TOKEN,
  SUMMARY_EMAIL,
  '7700900733',
  '7700 900733',
  '7700900734',
  '7700 900734',
  '7700900731',
  '7700 900731',
  '7700900732',
  '7700 900732',
  // Any argon2id hash and any webhook signing secret, whoever's they are.
  '$argon2id$',
  'whsec_',
];

const lines: string[] = [];
let server: TestServer;
let holder: LockHolder;
let twilio: TwilioDouble;
beforeAll(async () => {
  twilio = await startTwilioDouble({ authToken: TWILIO_TOKEN, invalidNumbers: [REFUSED_MOBILE.e164] });
  // The production logger's rules, at its most talkative level, writing into memory.
  const log = createLogger({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  server = await startTestServer({
    log,
    logger: log,
    // SQLite's lock is the fault here, also in a TEST_DATABASE=postgres run (an empty DATABASE_URL is SQLite's).
    env: { DATABASE_URL: '', STATIC_NUMBERS: '+447700900001', TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: TWILIO_TOKEN, TWILIO_API_BASE: twilio.url },
  });
  // "Longer than the busy timeout" without the 5 s of production's.
  sqliteOf(server.database).pragma('busy_timeout = 200');
  holder = await startLockHolder(path.join(server.dataDir, 'appliance.db'));
});
afterAll(async () => {
  holder?.stop();
  await server?.close();
  await twilio?.close();
});

/** What an owner writes: a sign-up, a password change, settings with a knowledge base, a webhook secret. */
async function everyWrite(owner: ApiClient, ownerPassword: string, newPassword: string, loginPassword: string) {
  const anon = new ApiClient(server.url);
  return {
    signup: (await anon.post('/api/auth/signup', signupBody({ businessEmail: SECOND.email, businessPhone: SECOND.phone, password: SECOND.password }))).status,
    password: (await owner.post('/api/auth/change-password', { currentPassword: ownerPassword, newPassword, confirmPassword: newPassword })).status,
    settings: (await owner.patch('/api/user/settings', { knowledgeBase: KNOWLEDGE })).status,
    secret: (await owner.post('/api/user/webhook/rotate-secret')).status,
    // A confirmation code texted through Twilio and mailed, and a number Twilio refuses.
    destinations: (await owner.patch('/api/user/settings', { notificationNumber: MOBILE.typed, summaryEmail: SUMMARY_EMAIL })).status,
    refused: (await owner.patch('/api/user/settings', { notificationNumber: REFUSED_MOBILE.typed })).status,
    login: (await anon.post('/api/auth/login', { email: OWNER.email, password: loginPassword })).status,
  };
}

describe('logs while every write fails and after', () => {
  it('hold no e-mail, phone, password, hash, knowledge base, secret or token that was planted', { timeout: 60_000 }, async () => {
    const owner = await activeCustomer(server, { businessEmail: OWNER.email, businessPhone: OWNER.phone, password: OWNER.password });
    expect((await owner.client.get('/api/user/webhook')).status).toBe(200);
    // Codes are texted from the business's own number.
    expect((await owner.client.post('/api/phone-numbers/purchase')).status).toBe(201);

    await holder.lock();
    const locked = await everyWrite(owner.client, OWNER.password, NEW_PASSWORDS[0]!, OWNER.password);
    await holder.unlock();
    // Every write was refused by the lock: the errors did reach the log.
    expect(locked).toEqual({ signup: 500, password: 500, settings: 500, secret: 500, destinations: 500, refused: 500, login: 500 });
    expect(lines.filter((l) => l.includes('"msg":"request failed"'))).toHaveLength(7);
    expect(lines.some((l) => l.includes('Failed query: '))).toBe(true);

    const after = await everyWrite(owner.client, OWNER.password, NEW_PASSWORDS[1]!, NEW_PASSWORDS[1]!);
    expect(after).toEqual({ signup: 201, password: 200, settings: 200, secret: 200, destinations: 200, refused: 502, login: 200 });
    // The code texted to the owner is a secret too.
    const codes = twilio.messages.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]);
    expect(codes).toHaveLength(1);
    PLANTED.push(codes[0]!);

    const leaks = PLANTED.flatMap((secret) => lines.filter((l) => l.toLowerCase().includes(secret.toLowerCase())).map((l) => `${secret} in ${l.slice(0, 300)}`));
    expect(leaks).toEqual([]);
  });
});
