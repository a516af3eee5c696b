import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer, signupBody } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sqliteOf } from '../../core/db/client.js';

// Text hygiene: control characters, text-direction controls and broken Unicode are refused
// in every text field with a 400 that names the field, and nothing is stored; a body that is
// not UTF-8 is refused instead of being stored with replacement characters.

let server: TestServer;
let owner: { client: ApiClient; user: { id: number } };
beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server, { businessName: 'Clean Text Ltd' });
});
afterAll(() => server.close());

function stored(): string {
  const db = sqliteOf(server.database);
  return ['users', 'calls', 'unanswered_questions'].map((t) => JSON.stringify(db.prepare(`select * from ${t} order by rowid`).all())).join('|');
}

const REFUSED: [string, string, RegExp][] = [
  ['NUL', '\u0000', /^businessName must not contain control characters \(U\+0000\)$/],
  ['BEL', '\u0007', /control characters \(U\+0007\)/],
  ['ESC', '\u001b', /control characters \(U\+001B\)/],
  ['DEL', '\u007f', /control characters \(U\+007F\)/],
  ['NEL (C1)', '\u0085', /control characters \(U\+0085\)/],
  ['a line feed', '\n', /^businessName must be a single line without tabs \(U\+000A\)$/],
  ['a carriage return', '\r', /single line without tabs \(U\+000D\)/],
  ['a tab', '\t', /single line without tabs \(U\+0009\)/],
  ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'].map(
    (c): [string, string, RegExp] => [
      `U+${c.charCodeAt(0).toString(16).toUpperCase()}`,
      c,
      new RegExp(`^businessName must not contain text-direction control characters \\(U\\+${c.charCodeAt(0).toString(16).toUpperCase()}\\)$`),
    ],
  ),
  ['an unpaired surrogate', '\ud800', /^businessName must be valid Unicode text \(U\+D800\)$/],
];

describe('a single-line text field', () => {
  it.each(REFUSED)('refuses %s with a 400 naming the field, and stores nothing', async (_name, ch, message) => {
    const before = stored();
    const res = await owner.client.patch('/api/user/settings', { businessName: `Acme${ch}Plumbing` });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(stored()).toBe(before);
  });

  it('refuses a sign-up whose e-mail carries a right-to-left override, and creates no account', async () => {
    const before = stored();
    const res = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signupBody({ businessEmail: 'moc.elpmaxe@\u202eowner.co.uk' })),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('businessEmail must not contain text-direction control characters (U+202E)');
    expect(stored()).toBe(before);
  });

  it('refuses a control character in a path parameter', async () => {
    const res = await owner.client.delete('/api/user/callers/07700%00900123');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('number must not contain control characters (U+0000)');
  });

  it('still takes accented letters, emoji and right-to-left script', async () => {
    const name = 'Café Zoë 🔧 مقهى';
    const res = await owner.client.patch('/api/user/settings', { businessName: name });
    expect(res.status).toBe(200);
    expect(res.body.user.businessName).toBe(name);
  });
});

describe('a multi-line text field (knowledge base, greeting)', () => {
  it('keeps tabs and line breaks', async () => {
    const knowledgeBase = 'Q: Open on Sundays?\r\nA: No.\n\n\tQ: Prices?\nA: From £60.';
    const callGreeting = 'Hello.\nPlease leave a message.';
    const res = await owner.client.patch('/api/user/settings', { knowledgeBase, callGreeting });
    expect(res.status).toBe(200);
    const row = sqliteOf(server.database).prepare('select knowledge_base kb, call_greeting g from users where id = ?').get(owner.user.id);
    expect(row).toEqual({ kb: knowledgeBase, g: callGreeting });
  });

  it.each([
    ['NUL', '\u0000', 'knowledgeBase must not contain control characters (U+0000)'],
    ['U+202E', '\u202e', 'knowledgeBase must not contain text-direction control characters (U+202E)'],
  ])('refuses %s, and stores nothing', async (_name, ch, message) => {
    const before = stored();
    const res = await owner.client.patch('/api/user/settings', { knowledgeBase: `Q: Open?\nA: Yes${ch}` });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(stored()).toBe(before);
  });
});

describe('a body that is not UTF-8', () => {
  const send = (bytes: Buffer) =>
    fetch(`${server.url}/api/user/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie: owner.client.cookie! },
      body: bytes,
    });

  it('is refused with a 400, not stored with replacement characters', async () => {
    const before = stored();
    // "Café" in Latin-1: 0xE9 alone is not UTF-8.
    const res = await send(Buffer.concat([Buffer.from('{"businessName":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe('The request body must be valid UTF-8 text.');
    expect(stored()).toBe(before);
    expect(stored()).not.toContain('\ufffd');
  });

  it('is accepted when the same text is sent as UTF-8', async () => {
    const res = await send(Buffer.from('{"businessName":"Café Bytes"}', 'utf8'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { businessName: string } }).user.businessName).toBe('Café Bytes');
  });
});
