// Greeting previews never slow live calls (issue 24 item 2): they speak through the same voice
// engine slots as live agent calls, which go first, and follow the agent preview's rules (an
// active account, one at a time per owner, a global cap answering 503).
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../helpers/tables.js';
import { buildWavHeader } from '../../models/audio/wav-header.js';
import { createPromptCache, type TextToSpeech } from '../../models/tts/index.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A voice engine whose every synthesis waits until the test lets it finish. */
const started: string[] = [];
const holds = new Map<string, () => void>();
const heldTts: TextToSpeech = {
  engine: 'espeak-ng',
  async synthesize(text, _voice, outFile) {
    started.push(text);
    await new Promise<void>((r) => holds.set(text, r));
    const data = Buffer.alloc(1600);
    fs.writeFileSync(outFile, Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: data.length }), data]));
  },
};
const finish = (text: string) => vi.waitFor(() => {
  const release = holds.get(text);
  if (!release) throw new Error(`"${text}" is not being spoken`);
  holds.delete(text);
  release();
}, { timeout: 20_000 });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    setup: (s) => {
      s.agentEngines = { ...s.agentEngines, speech: createPromptCache({ dataDir: s.config.dataDir, tts: heldTts }) };
    },
  });
});
afterAll(async () => server?.close());

const preview = (client: Awaited<ReturnType<typeof activeCustomer>>['client'], greeting: string) => client.post('/api/greeting/preview', { callGreeting: greeting });

describe('greeting previews and live calls', () => {
  it('a live call’s sentence is spoken at once while previews wait; a second preview per owner is 429, a third owner 503', { timeout: 120_000 }, async () => {
    const [a, b, c] = [await activeCustomer(server), await activeCustomer(server), await activeCustomer(server)];
    const first = preview(a.client, 'Hello from A.');
    await vi.waitFor(() => expect(started).toContain('Hello from A.'), { timeout: 20_000 });
    const again = await preview(a.client, 'Hello again from A.');
    expect(again.status).toBe(429);
    expect(again.body.message).toBe('Your previous greeting is still being made. Please wait a moment.');

    // B's preview is accepted but waits for the voice engine: previews never take the caller's slot.
    // C asks only once B is inside the gate (it has asked the engine): on a loaded machine B's
    // request could otherwise arrive after C's, and C would take the gate's last place.
    const asked = vi.spyOn(server.services.agentEngines.speech, 'get');
    const second = preview(b.client, 'Hello from B.');
    await vi.waitFor(() => expect(asked.mock.calls.map(([text]) => text)).toContain('Hello from B.'), { timeout: 20_000 });
    const busy = await preview(c.client, 'Hello from C.');
    expect(busy.status).toBe(503);
    expect(busy.body.message).toBe('The voice engine is busy with other previews right now. Please try again in a moment.');

    // A caller's sentence on a live agent call (the phone path asks with the default, call priority).
    const spoken = server.services.agentEngines.speech.get('Our engineer can come tomorrow morning.', 'female');
    await vi.waitFor(() => expect(started).toContain('Our engineer can come tomorrow morning.'), { timeout: 20_000 });
    expect(started).not.toContain('Hello from B.');
    await finish('Our engineer can come tomorrow morning.');
    expect((await spoken).durationMs).toBe(100);

    await finish('Hello from A.');
    expect((await first).status).toBe(200);
    await finish('Hello from B.');
    expect((await second).status).toBe(200);
    expect(started).toEqual(['Hello from A.', 'Our engineer can come tomorrow morning.', 'Hello from B.']);
  });

  it('is refused to an account that is not active, before anything is spoken', async () => {
    const owner = await activeCustomer(server);
    await server.database.db.update(users).set({ accountStatus: 'expired' }).where(eq(users.id, owner.user.id));
    const res = await preview(owner.client, 'Hello from an expired trial.');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Hearing your greeting needs an active account. Please contact support to continue.');
    expect(started).not.toContain('Hello from an expired trial.');
  });
});
