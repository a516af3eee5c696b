import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN: 'scrape-secret-123' } });
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
    const db = server.database.sqlite;
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
