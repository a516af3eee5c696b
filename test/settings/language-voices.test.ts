// Issue 42: the owner's voice per caller language. The box's installed voices come from the TTS
// engine (espeak-ng here: Piper's voice listing is test/tts/piper.test.ts); a save is checked
// against them and against the ticked languages, and the line preview speaks in the choice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { createPromptCache, createTextToSpeech } from '../../models/tts/index.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TTS_ENGINE: 'espeak-ng' } });
});
afterAll(() => server?.close());

const me = async (client: ApiClient) => (await client.get('/api/auth/me')).body.user;
const audioKey = (file: string) => `/api/agent/preview/audio/${file.split('/').pop()!.replace(/\.wav$/, '')}`;

describe('GET /api/agent/voices', () => {
  it('lists the installed voices of each caller language but English, each reading its script', async () => {
    const { client } = await activeCustomer(server);
    const res = await client.get('/api/agent/voices');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.languages)).toEqual(['pl', 'ro', 'pa', 'ur', 'pt', 'es', 'cy']);
    expect(res.body.languages.pl).toEqual([
      { id: 'espeak-ng:pl+f3', label: 'Basic female voice (plainer, more robotic)' },
      { id: 'espeak-ng:pl', label: 'Basic male voice (plainer, more robotic)' },
    ]);
    // Urdu is written in Arabic script: espeak-ng's Urdu voices read it, never an English one.
    expect(res.body.languages.ur.map((v: { id: string }) => v.id)).toEqual(['espeak-ng:ur+f3', 'espeak-ng:ur']);
  });

  it('is for signed-in owners only', async () => {
    const { ApiClient: Client } = await import('../helpers/client.js');
    expect((await new Client(server.url).get('/api/agent/voices')).status).toBe(401);
  });
});

describe('PATCH /api/user/settings languageVoices', () => {
  it('defaults to none (the female/male rule), saves the owner’s choice, and an empty map resets it', async () => {
    const { client } = await activeCustomer(server);
    expect((await me(client)).languageVoices).toEqual({});
    const res = await client.patch('/api/user/settings', { agentLanguages: ['pl', 'ur'], languageVoices: { pl: 'espeak-ng:pl', ur: 'espeak-ng:ur+f3' } });
    expect(res.status).toBe(200);
    expect(res.body.user.languageVoices).toEqual({ pl: 'espeak-ng:pl', ur: 'espeak-ng:ur+f3' });
    expect((await me(client)).languageVoices).toEqual({ pl: 'espeak-ng:pl', ur: 'espeak-ng:ur+f3' });
    expect((await client.patch('/api/user/settings', { languageVoices: {} })).status).toBe(200);
    expect((await me(client)).languageVoices).toEqual({});
  });

  it('drops the voice of a language unticked later, and keeps the others', async () => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { agentLanguages: ['pl', 'cy'], languageVoices: { pl: 'espeak-ng:pl', cy: 'espeak-ng:cy' } });
    expect((await client.patch('/api/user/settings', { agentLanguages: ['cy'] })).body.user.languageVoices).toEqual({ cy: 'espeak-ng:cy' });
  });

  it.each([
    ['a voice the box does not have', { languageVoices: { pl: 'piper:pl_PL-gosia-medium' } }, 'languageVoices: This box has no Polish voice "piper:pl_PL-gosia-medium". Choose from "espeak-ng:pl+f3", "espeak-ng:pl".'],
    ['a voice of another language', { languageVoices: { pl: 'espeak-ng:ro' } }, 'languageVoices: "espeak-ng:ro" is a voice for Romanian, not for Polish. Choose from "espeak-ng:pl+f3", "espeak-ng:pl".'],
    ['a voice for a language not ticked', { languageVoices: { cy: 'espeak-ng:cy' } }, 'languageVoices: Welsh is not a ticked caller language, so it cannot have a voice ("espeak-ng:cy"). Tick Welsh under Caller Languages first.'],
    [
      'a voice for a language the same save unticks',
      { agentLanguages: ['ur'], languageVoices: { pl: 'espeak-ng:pl' } },
      'languageVoices: Polish is not a ticked caller language, so it cannot have a voice ("espeak-ng:pl"). Tick Polish under Caller Languages first.',
    ],
    ['a language the agent does not speak', { languageVoices: { de: 'espeak-ng:de' } }, /^languageVoices: The agent does not speak "de" \(voice "espeak-ng:de"\)\. Choose voices for pl \(Polish\), .*cy \(Welsh\)\.$/],
    ['a voice for English', { languageVoices: { en: 'espeak-ng:en-gb' } }, 'languageVoices: English\'s voice ("espeak-ng:en-gb") is the Voice under Greeting (Female or Male); choose voices here for the other caller languages.'],
    ['not a map', { languageVoices: ['pl'] }, 'languageVoices must map at most 16 language codes to a voice each, e.g. {"pl": "espeak-ng:pl+f3"}'],
    ['a voice that is not text', { languageVoices: { pl: 5 } }, 'languageVoices must map at most 16 language codes to a voice each, e.g. {"pl": "espeak-ng:pl+f3"}'],
  ])('refuses %s with a 400 naming the language and the voice, and nothing stored changes', async (_what, body, message) => {
    const { client } = await activeCustomer(server);
    await client.patch('/api/user/settings', { agentLanguages: ['pl', 'ur'], languageVoices: { pl: 'espeak-ng:pl' } });
    const before = await me(client);
    const res = await client.patch('/api/user/settings', body);
    expect(res.status).toBe(400);
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(message);
    expect(await me(client)).toEqual(before);
  });
});

describe('POST /api/agent/line-preview in a chosen voice', () => {
  it('speaks the line in the voice asked for, else in the owner’s saved one: the very file a caller would hear', async () => {
    const owner = await activeCustomer(server, { businessName: 'Hale Plumbing' });
    const phonePrompts = createPromptCache({ dataDir: server.config.dataDir, tts: createTextToSpeech(server.config.tts) });
    const text = fixedLines('pl').greeting('Hale Plumbing');
    const male = await phonePrompts.get(text, 'female', 'call', 'pl', 'espeak-ng:pl');
    const female = await phonePrompts.get(text, 'female', 'call', 'pl');
    expect(male.file).not.toBe(female.file);

    const asked = await owner.client.post('/api/agent/line-preview', { language: 'pl', line: 'greeting', languageVoice: 'espeak-ng:pl' });
    expect([asked.status, asked.body.text, asked.body.audioUrl]).toEqual([200, text, audioKey(male.file)]);
    const audio = await owner.client.get(asked.body.audioUrl);
    expect([audio.status, audio.headers.get('content-type')]).toEqual([200, 'audio/wav']);

    // Saved for Polish: the preview without a voice is in it, as a call would be.
    await owner.client.patch('/api/user/settings', { agentLanguages: ['pl'], languageVoices: { pl: 'espeak-ng:pl' } });
    const saved = await owner.client.post('/api/agent/line-preview', { language: 'pl', line: 'greeting' });
    expect([saved.status, saved.body.audioUrl]).toEqual([200, audioKey(male.file)]);
  }, 60_000);

  it('refuses a voice the language does not have with a 400 naming both', async () => {
    const owner = await activeCustomer(server);
    const res = await owner.client.post('/api/agent/line-preview', { language: 'ur', line: 'greeting', languageVoice: 'espeak-ng:pl' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('"espeak-ng:pl" is a voice for Polish, not for Urdu. Choose from "espeak-ng:ur+f3", "espeak-ng:ur".');
  });
});
