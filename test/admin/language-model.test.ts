import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { waitUntil } from '../helpers/wait.js';

// Issue 60 item 2: a new box's Ollama starts without the model. The core pulls it itself (here
// the first pull fails, as with no route to the registry, and the retry succeeds), the admin
// dashboard's API says where it is, and the agent preview says it is not ready rather than hang.

let server: TestServer;
let ollama: OllamaDouble;
let admin: ApiClient;
let releasePull!: () => void;
beforeAll(async () => {
  ollama = await startOllamaDouble({ models: [], pullFailures: 1 });
  ollama.pull.until = new Promise<void>((r) => (releasePull = r));
  server = await startTestServer({ env: { OLLAMA_URL: ollama.url, OLLAMA_MODEL: 'llama3.2:3b' }, background: { model: true } });
  admin = await signInAdmin(server);
});
afterAll(async () => {
  await server.close();
  await ollama.close();
});

describe('GET /api/admin/engines (the language model pulled on first start)', () => {
  it('says a failed pull plainly with its next try, then the download, then ready', async () => {
    const failed = await waitUntil(async () => {
      const res = await admin.get('/api/admin/engines');
      expect(res.body.languageModel.state).toBe('failed');
      return res;
    }, 20_000);
    expect(failed.status).toBe(200);
    expect(failed.body.languageModel).toMatchObject({ model: 'llama3.2:3b', error: expect.stringMatching(/^Ollama could not pull llama3\.2:3b: .*no such host$/) });
    const retryAt = Date.parse(failed.body.languageModel.nextRetryAt);
    expect(retryAt - Date.now()).toBeGreaterThan(0);
    expect(retryAt - Date.now()).toBeLessThanOrEqual(10_000);

    // The owner's preview meanwhile: a clear 503, not a wait on Ollama.
    const { client } = await activeCustomer(server);
    const preview = await client.post('/api/agent/preview', { question: 'Are you open on Saturdays?' });
    expect(preview.status).toBe(503);
    expect(preview.body.message).toMatch(/^The AI agent is not ready yet: the language model could not be downloaded/);

    // The retry (10 s later) is held mid-download until the test lets it finish.
    const downloading = await waitUntil(async () => {
      const res = await admin.get('/api/admin/engines');
      expect(res.body.languageModel.state).toBe('downloading');
      return res;
    }, 30_000);
    expect(downloading.body.languageModel).toEqual({ state: 'downloading', model: 'llama3.2:3b', percent: 0 });
    releasePull();
    await waitUntil(async () => expect((await admin.get('/api/admin/engines')).body.languageModel).toEqual({ state: 'ready', model: 'llama3.2:3b' }), 20_000);
    expect(ollama.pulls).toEqual(['llama3.2:3b', 'llama3.2:3b']);
  });

  it('is for admins only', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.get('/api/admin/engines')).status).toBe(403);
  });
});
