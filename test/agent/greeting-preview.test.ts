// POST /api/greeting/preview: the greeting a caller hears, from the unsaved form, in the chosen
// voice, through the phone path's wording rule and prompt cache (the same file the PBX plays).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseGreeting, GENERIC_GREETING } from '../../dialogue/spoken/greeting.js';
import { createPromptCache, createTextToSpeech } from '../../models/tts/index.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TTS_ENGINE: 'espeak-ng' } });
});
afterAll(async () => server?.close());

describe('POST /api/greeting/preview', () => {
  it('speaks the business-name greeting in the chosen voice, the very file the phone path would play', async () => {
    const owner = await activeCustomer(server, { businessName: 'Saved Name Ltd' });
    const res = await owner.client.post('/api/greeting/preview', { businessName: 'Typed Name Ltd', callGreeting: '', voice: 'male' });
    expect(res.status).toBe(200);
    expect(res.body.text).toBe(chooseGreeting({ businessName: 'Typed Name Ltd', callGreeting: '' }));
    expect(res.body.text).toBe(
      "You've reached Typed Name Ltd. For quality purposes, this call is being recorded. Please leave your name and message after the tone.",
    );
    // What pbx/index.ts builds to play greetings: the same cache over the same engine.
    const phonePrompts = createPromptCache({ dataDir: server.config.dataDir, tts: createTextToSpeech(server.config.tts) });
    const phonePath = await phonePrompts.get(res.body.text, 'male');
    expect(res.body.audioUrl).toBe(`/api/agent/preview/audio/${phonePath.file.split('/').pop()!.replace(/\.wav$/, '')}`);
    const audio = await owner.client.get(res.body.audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/wav');
    // Another owner cannot fetch it.
    expect((await (await activeCustomer(server)).client.get(res.body.audioUrl)).status).toBe(404);
  });

  it('uses the custom greeting over the name, and the saved values when the form sends none', async () => {
    const owner = await activeCustomer(server, { businessName: 'Saved Name Ltd' });
    const custom = await owner.client.post('/api/greeting/preview', { businessName: 'X', callGreeting: ' Hello from the salon. ', voice: 'female' });
    expect(custom.body.text).toBe('Hello from the salon.');
    const saved = await owner.client.post('/api/greeting/preview', {});
    expect(saved.body.text).toContain("You've reached Saved Name Ltd.");
    const blank = await owner.client.post('/api/greeting/preview', { businessName: '', callGreeting: null });
    expect(blank.body.text).toBe(GENERIC_GREETING);
  });

  it('answers a bad voice or an unknown field with a 400 and a message, and a signed-out visitor with a 401', async () => {
    const owner = await activeCustomer(server);
    const bad = await owner.client.post('/api/greeting/preview', { voice: 'robot' });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
    expect((await owner.client.post('/api/greeting/preview', { colour: 'red' })).status).toBe(400);
    const anon = await fetch(`${server.url}/api/greeting/preview`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: '{}' });
    expect(anon.status).toBe(401);
  });
});
