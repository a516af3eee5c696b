import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '../helpers/tables.js';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The admin dashboard's agent capacity: conversations against what the engine pools serve
// (OLLAMA_SLOTS 3, WHISPER_SLOTS 1 serving 4 conversations), and the calls of the last 24 hours
// turned to voicemail for capacity (refused at answer, or offered voicemail when the engines stalled).

let server: TestServer;
let admin: ApiClient;
beforeAll(async () => {
  server = await startTestServer({ env: { OLLAMA_URL: 'http://127.0.0.1:9/', OLLAMA_SLOTS: '3', WHISPER_URL: 'http://127.0.0.1:9/', WHISPER_SLOTS: '1', TTS_SLOTS: '2' } });
  admin = await signInAdmin(server);
});
afterAll(() => server.close());

describe('GET /api/admin/agent-capacity', () => {
  it('counts conversations in progress against what the engines admit, with each engine’s slots', async () => {
    const pools = server.services.agentEngines.pools;
    const held = [pools.admitConversation(), pools.admitConversation()];
    try {
      const res = await admin.get('/api/admin/agent-capacity');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        conversations: 2,
        conversationCapacity: 3, // Ollama's 3 slots; Whisper's one slot serves 4
        engines: [
          { engine: 'ollama', slots: 3, slotsInUse: 0, endpoints: 1, healthyEndpoints: 1 },
          { engine: 'whisper', slots: 1, slotsInUse: 0, endpoints: 1, healthyEndpoints: 1 },
          { engine: 'tts', slots: 2, slotsInUse: 0 },
        ],
      });
    } finally {
      for (const a of held) a?.release();
    }
    expect((await admin.get('/api/admin/agent-capacity')).body.conversations).toBe(0);
  });

  it('counts the last 24 hours’ agent calls turned to voicemail for capacity: busy at answer, or stalled mid-call', async () => {
    const { user } = await activeCustomer(server);
    const now = server.services.now().getTime();
    const row = (hoursAgo: number, tags: { agentBusy?: boolean; agentStalled?: boolean }) => ({
      userId: user.id,
      fromNumber: '+447700900111',
      toNumber: '+441130000001',
      mode: 'agent' as const,
      status: 'voicemail' as const,
      createdAt: new Date(now - hoursAgo * 3600_000),
      ...tags,
    });
    await server.database.db.insert(calls).values([
      row(1, { agentBusy: true }),
      row(2, { agentBusy: true }),
      row(3, { agentStalled: true }),
      row(23.5, { agentStalled: true }),
      row(4, {}), // a conversation the engines served
      row(25, { agentBusy: true }), // older than a day
      row(26, { agentStalled: true }),
    ]);
    const res = await admin.get('/api/admin/agent-capacity');
    expect(res.status).toBe(200);
    expect(res.body.voicemailForCapacity).toEqual({ busy: 2, stalled: 2, total: 4 });
  });

  it('is for administrators only', async () => {
    const { client } = await activeCustomer(server);
    const res = await client.get('/api/admin/agent-capacity');
    expect(res.status).toBe(403);
  });
});
