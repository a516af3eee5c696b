import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 42: the languages the agent may answer callers in, an owner setting.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('PATCH /api/user/settings agentLanguages', () => {
  it('defaults to every language the box speaks, English first', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.get('/api/auth/me')).body.user.agentLanguages).toEqual(['en', 'pl', 'ro', 'pa', 'ur', 'pt', 'es', 'cy']);
  });

  it('saves the owner’s choice, always with English first and without repeats', async () => {
    const { client } = await activeCustomer(server);
    const res = await client.patch('/api/user/settings', { agentLanguages: ['cy', 'pl', 'cy'] });
    expect(res.status).toBe(200);
    expect(res.body.user.agentLanguages).toEqual(['en', 'cy', 'pl']);
    expect((await client.get('/api/auth/me')).body.user.agentLanguages).toEqual(['en', 'cy', 'pl']);
    // English only: the agent never switches (and whisper is not asked to detect).
    expect((await client.patch('/api/user/settings', { agentLanguages: [] })).body.user.agentLanguages).toEqual(['en']);
  });

  it.each([
    ['a language the box does not speak', { agentLanguages: ['pl', 'de'] }, /^agentLanguages: the agent does not speak "de"\. Choose from en \(English\), pl \(Polish\), .*cy \(Welsh\)\.$/],
    ['not a list', { agentLanguages: 'pl' }, /^agentLanguages must be a list of at most 16 language codes/],
    ['a list of numbers', { agentLanguages: [1] }, /^agentLanguages must be a list of at most 16 language codes/],
  ])('refuses %s with a 400 the console can show, and keeps what was stored', async (_what, body, message) => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { agentLanguages: ['pl'] });
    const res = await client.patch('/api/user/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await client.get('/api/auth/me')).body.user.agentLanguages).toEqual(['en', 'pl']);
  });
});

describe('PATCH /api/user/settings greetingLanguages (the bilingual greeting)', () => {
  it('defaults to English alone, and keeps the owner’s order', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.get('/api/auth/me')).body.user.greetingLanguages).toEqual(['en']);
    const res = await client.patch('/api/user/settings', { greetingLanguages: ['cy', 'en'] });
    expect(res.status).toBe(200);
    expect((await client.get('/api/auth/me')).body.user.greetingLanguages).toEqual(['cy', 'en']);
  });

  it('checks against the caller languages the same save ticks, and a language unticked later drops out of the greeting', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.patch('/api/user/settings', { agentLanguages: ['cy'], greetingLanguages: ['en', 'cy'] })).status).toBe(200);
    expect((await client.patch('/api/user/settings', { agentLanguages: ['pl'] })).body.user.greetingLanguages).toEqual(['en']);
  });

  it.each([
    ['no English', { greetingLanguages: ['cy'] }, 'The greeting must include English: callers are answered in English until they speak another language.'],
    ['a language not ticked', { agentLanguages: ['pl'], greetingLanguages: ['en', 'cy'] }, 'Tick Welsh under Caller Languages to greet callers in it.'],
    ['a language the box does not speak', { greetingLanguages: ['en', 'de'] }, 'greetingLanguages: the agent does not speak "de".'],
    ['a repeat', { greetingLanguages: ['en', 'en'] }, 'greetingLanguages: name each language once.'],
    ['an empty list', { greetingLanguages: [] }, 'greetingLanguages must be a list of 1 to 8 language codes in the order they are spoken, e.g. ["en", "cy"]'],
    ['not a list', { greetingLanguages: 'cy' }, 'greetingLanguages must be a list of 1 to 8 language codes in the order they are spoken, e.g. ["en", "cy"]'],
  ])('refuses %s with a 400 the console can show, and keeps what was stored', async (_what, body, message) => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { greetingLanguages: ['en', 'pl'] });
    const res = await client.patch('/api/user/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await client.get('/api/auth/me')).body.user).toMatchObject({ greetingLanguages: ['en', 'pl'], agentLanguages: ['en', 'pl', 'ro', 'pa', 'ur', 'pt', 'es', 'cy'] });
  });
});
