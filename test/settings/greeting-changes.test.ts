import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCallPath } from '../../core/calls/call-path.js';
import { chooseGreeting } from '../../dialogue/spoken/greeting.js';
import { createPromptCache, createTextToSpeech, promptKey, type Voice } from '../../models/tts/index.js';
import { keepGreetingCurrent } from '../../pbx/greeting-prompt.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 24 item 3: a greeting change is a synthesis into the shared prompts folder on the shared
// engine, so an owner may make only so many; and the greeting it replaced leaves the folder.
const LIMIT = 3;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    rateLimits: { greetingChangesPerOwner: { max: LIMIT, windowMs: 60 * 60_000 } },
    // What startPbx wires: the greeting listener over the shared prompts folder (no Asterisk needed for it).
    setup: (services) => {
      const store = createPromptCache({ dataDir: services.config.dataDir, tts: createTextToSpeech(services.config.tts), folder: services.agentEngines.promptFolder });
      const callPath = createCallPath(services.database.db, services.log);
      services.hooks.settingsChanged.push(keepGreetingCurrent({ prompts: store, store, owner: (id) => callPath.owner(id), log: services.log }));
    },
  });
});
afterAll(() => server.close());

const promptFile = (text: string, voice: Voice) => path.join(server.dataDir, 'prompts', `${promptKey(createTextToSpeech(server.config.tts).engine, voice, text)}.wav`);

describe('greeting changes (issue 24 item 3)', () => {
  it(`refuses the ${LIMIT + 1}th greeting change in the window with a clear 429, and stores nothing of that save`, async () => {
    const { client } = await activeCustomer(server);
    for (let i = 1; i <= LIMIT; i++) {
      const res = await client.patch('/api/user/settings', { callGreeting: `Greeting number ${i}.` });
      expect(res.status).toBe(200);
    }
    const before = (await client.get('/api/auth/me')).body.user;
    const refused = await client.patch('/api/user/settings', { callGreeting: 'One too many.', smsEnabled: !before.smsEnabled });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^You have changed your greeting \(its words, business name or voice\) too often\. Nothing was saved: please wait \d+ minutes? and save again\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await client.get('/api/auth/me')).body.user).toEqual(before);
    // A new voice or a business name that changes the default greeting counts the same.
    expect((await client.patch('/api/user/settings', { voicePreference: before.voicePreference === 'male' ? 'female' : 'male' })).status).toBe(429);
  });

  it('counts only saves that change what callers hear: other settings and an unchanged greeting stay open', async () => {
    const { client } = await activeCustomer(server);
    for (let i = 1; i <= LIMIT; i++) expect((await client.patch('/api/user/settings', { callGreeting: `Hello ${i}` })).status).toBe(200);
    expect((await client.patch('/api/user/settings', { callGreeting: `Hello ${LIMIT}`, smsEnabled: false, aiMode: 'agent' })).status).toBe(200);
    expect((await client.patch('/api/user/settings', { knowledgeBase: 'Q: Open?\nA: Yes.' })).status).toBe(200);
    // Another owner has their own allowance.
    const other = await activeCustomer(server);
    expect((await other.client.patch('/api/user/settings', { callGreeting: 'Mine is new' })).status).toBe(200);
  });

  it("removes the owner's previous greeting from the prompts folder when it changes", async () => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { businessName: 'Acme Plumbing', voicePreference: 'female' });
    const first = promptFile(chooseGreeting({ callGreeting: null, businessName: 'Acme Plumbing' }), 'female');
    await vi.waitFor(() => expect(fs.existsSync(first)).toBe(true), { timeout: 30_000, interval: 100 });

    await client.patch('/api/user/settings', { callGreeting: 'Acme Plumbing: leave a message.' });
    const second = promptFile('Acme Plumbing: leave a message.', 'female');
    await vi.waitFor(() => expect(fs.existsSync(second)).toBe(true), { timeout: 30_000, interval: 100 });
    await vi.waitFor(() => expect(fs.existsSync(first)).toBe(false), { timeout: 30_000, interval: 100 });

    // A new voice replaces the file too.
    await client.patch('/api/user/settings', { voicePreference: 'male' });
    const third = promptFile('Acme Plumbing: leave a message.', 'male');
    await vi.waitFor(() => expect(fs.existsSync(third)).toBe(true), { timeout: 30_000, interval: 100 });
    await vi.waitFor(() => expect(fs.existsSync(second)).toBe(false), { timeout: 30_000, interval: 100 });
  });
});
