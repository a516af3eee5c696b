import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sqliteOf } from '../../core/db/client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { METRICS_TOKEN: 'scrape-secret-123', OLLAMA_URL: 'http://gpu1.test:11434,http://gpu2.test:11434', OLLAMA_SLOTS: '2,1', WHISPER_URL: 'http://whisper.test:8080' },
  });
});
afterAll(() => server.close());

const scrape = (token?: string) =>
  fetch(`${server.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('/metrics', () => {
  it('refuses a scrape without the token', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape('wrong-token')).status).toBe(401);
  });

  it('reports calls by outcome, jobs, notifications and request latency in Prometheus format', async () => {
    const { user } = await activeCustomer(server);
    const db = sqliteOf(server.database);
    const call = db.prepare("insert into calls (user_id, from_number, to_number, status, mode) values (?, '+447700900111', '+447700900001', ?, 'voicemail')");
    call.run(user.id, 'voicemail');
    call.run(user.id, 'voicemail');
    call.run(user.id, 'missed');
    db.prepare("insert into jobs (kind, key, payload, status, run_at) values ('post-call', 'post-call:x', '{}', 'failed', 0)").run();
    db.prepare("insert into notifications (user_id, channel, \"to\", body, status) values (?, 'sms', '+447700900999', 'hi', 'sent')").run(user.id);

    const res = await scrape('scrape-secret-123');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toContain('appliance_calls{status="voicemail",mode="voicemail"} 2');
    expect(text).toContain('appliance_calls{status="missed",mode="voicemail"} 1');
    expect(text).toContain('appliance_jobs{kind="post-call",status="failed"} 1');
    expect(text).toContain('appliance_notifications{channel="sms",status="sent"} 1');
    expect(text).toMatch(/appliance_http_request_duration_seconds_count\{method="POST",route="\/api\/auth\/login",status="200"\} \d+/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});

describe('/metrics: the engine pools', () => {
  it('reports slots and slots in use per endpoint, requests waiting, and agent calls refused per engine', async () => {
    const { pools } = server.services.agentEngines;
    const conversations = [pools.admitConversation(), pools.admitConversation(), pools.admitConversation()];
    expect(pools.admitConversation()).toBeNull(); // 3 Ollama slots, one conversation each
    const turn = await pools.llm.acquire('live');
    const summary = pools.llm.acquire('background'); // every slot is owed to a conversation: it waits
    try {
      const text = await (await scrape('scrape-secret-123')).text();
      expect(text).toContain('appliance_engine_slots{engine="ollama",endpoint="http://gpu1.test:11434"} 2');
      expect(text).toContain('appliance_engine_slots{engine="ollama",endpoint="http://gpu2.test:11434"} 1');
      expect(text).toContain(`appliance_engine_slots_in_use{engine="ollama",endpoint="${turn.url}"} 1`);
      expect(text).toContain('appliance_engine_endpoint_up{engine="whisper",endpoint="http://whisper.test:8080"} 1');
      expect(text).toContain('appliance_engine_waiting{engine="ollama",priority="background"} 1');
      expect(text).toContain('appliance_agent_refusals{engine="ollama"} 1');
      expect(text).toContain('appliance_agent_conversations 3');
    } finally {
      turn.done();
      conversations.forEach((c) => c!.release());
      (await summary).done();
    }
    const after = await (await scrape('scrape-secret-123')).text();
    expect(after).toContain('appliance_engine_queue_wait_seconds_count{engine="ollama",priority="background"} 1');
  });
});

describe('/metrics without a token configured', () => {
  it('is off with a message saying how to turn it on', async () => {
    const bare = await startTestServer();
    try {
      const res = await fetch(`${bare.url}/metrics`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).message).toBe('Metrics are off: set METRICS_TOKEN to enable /metrics.');
    } finally {
      await bare.close();
    }
  });
});
