// POST /api/agent/line-preview (issue 42): each of the agent's fixed lines in each caller
// language and voice, through the phone path's prompt cache and language voices, so the
// owner hears the very file a Polish or Urdu caller would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_LINES } from '../../contract/languages.js';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { LANGUAGES } from '../../dialogue/language/languages.js';
import { createPromptCache, createTextToSpeech } from '../../models/tts/index.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TTS_ENGINE: 'espeak-ng' } });
});
afterAll(async () => server?.close());

describe('POST /api/agent/line-preview', () => {
  it('speaks the Welsh greeting in the Welsh voice, the very file a Welsh caller would hear', async () => {
    const owner = await activeCustomer(server, { businessName: 'Siop Dai' });
    const res = await owner.client.post('/api/agent/line-preview', { language: 'cy', line: 'greeting', voice: 'male' });
    expect(res.status).toBe(200);
    expect(res.body.text).toBe(fixedLines('cy').greeting('Siop Dai'));
    const phonePrompts = createPromptCache({ dataDir: server.config.dataDir, tts: createTextToSpeech(server.config.tts) });
    const phonePath = await phonePrompts.get(res.body.text, 'male', 'call', 'cy');
    expect(res.body.audioUrl).toBe(`/api/agent/preview/audio/${phonePath.file.split('/').pop()!.replace(/\.wav$/, '')}`);
    const audio = await owner.client.get(res.body.audioUrl);
    expect([audio.status, audio.headers.get('content-type')]).toEqual([200, 'audio/wav']);
    // The same words in English's voice are another file: the language's voice spoke this one.
    expect((await phonePrompts.get(res.body.text, 'male')).file).not.toBe(phonePath.file);
  });

  it('has every line in every language, each in that language’s words', async () => {
    const texts = new Set<string>();
    for (const language of LANGUAGES) {
      const owner = await activeCustomer(server, { businessName: 'Hale Plumbing' }); // previews are rate-limited per owner
      for (const line of ['holding', 'engineFailure', 'switched'] as const) {
        const res = await owner.client.post('/api/agent/line-preview', { language, line });
        expect(res.status).toBe(200);
        const f = fixedLines(language);
        expect(res.body.text).toBe(line === 'switched' ? f.switched : f.lines[line]);
        texts.add(res.body.text);
      }
    }
    expect(texts.size).toBe(LANGUAGES.length * 3);
    expect(Object.keys(PREVIEW_LINES)).toContain('goodbye');
  }, 180_000); // 24 lines synthesised by espeak-ng and eight owners approved: minutes on a loaded machine

  it.each([
    ['a language the agent does not speak', { language: 'de', line: 'greeting' }, /^The agent does not speak "de"\. Choose from en \(English\), pl \(Polish\)/],
    ['an unknown line', { language: 'pl', line: 'toString' }, /^There is no line "toString" to hear\. Choose from greeting, switched, /],
    ['a bad voice', { language: 'pl', line: 'greeting', voice: 'robot' }, /./],
  ])('refuses %s with a 400 and a message', async (_what, body, message) => {
    const owner = await activeCustomer(server);
    const res = await owner.client.post('/api/agent/line-preview', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});
