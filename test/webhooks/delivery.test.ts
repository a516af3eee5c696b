// Webhooks end to end: the real server and pipeline, a call finished as the PBX finishes it,
// delivery through the durable job queue over real HTTPS to an independent receiver. The only
// test seam is the service's `testReceiver` (loopback allowed, the fixture CA trusted) and a
// stub resolver mapping receiver.example to 127.0.0.1; the refusals are in ssrf.test.ts.
// receiver.example has no record in the system's DNS, so every request that arrives proves
// the sender connected to the address the guard checked instead of resolving the name again.
import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { type Call } from '../../core/db/schema.js';
import { calls, jobs, webhookDeliveries } from '../helpers/tables.js';
import type { ResolvedAddress } from '../../core/webhooks/address-guard.js';
import { WebhookService, webhookKey } from '../../core/webhooks/service.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createPipeline, FAST, type Pipeline } from '../pipeline/harness.js';
import { RECEIVER_CA, startReceiver, verifySignature, type Receiver } from './receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

interface Fixture {
  server: TestServer;
  pipeline: Pipeline;
  owner: ApiClient;
  ownerId: number;
  /** What the stub resolver answers for each name. */
  dns: Map<string, string>;
  hookUrl: string;
  finishedCall(set?: Partial<Call>): Promise<number>;
  delivery(id?: number): Promise<typeof webhookDeliveries.$inferSelect>;
  secret(): Promise<string>;
}

let f: Fixture | undefined;
afterEach(async () => {
  await f?.pipeline.stop();
  await f?.server.close();
  f = undefined;
  receiver.requests.length = 0;
  receiver.script.length = 0;
});

async function start(): Promise<Fixture> {
  const dns = new Map([['receiver.example', '127.0.0.1']]);
  const resolver = async (host: string): Promise<ResolvedAddress[]> => {
    const a = dns.get(host);
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address: a, family: a.includes(':') ? 6 : 4 }];
  };
  const server = await startTestServer({
    env: { PUBLIC_URL: 'https://callkeeper.example.co.uk' },
    webhooks: {
      resolver,
      testReceiver: { allowLoopback: true, ca: RECEIVER_CA },
      timeoutMs: 500,
      backoff: { baseMs: 20, maxMs: 100, jitter: 0 },
      maxAttempts: 4,
      pollMs: 20,
      leaseMs: 5_000,
      heartbeatMs: 500,
    },
  });
  const pipeline = createPipeline(server.services, {}, FAST);
  pipeline.start();
  const { client, user } = await activeCustomer(server);
  const hookUrl = `https://receiver.example:${receiver.port}/hooks/catch/1/abc`;
  const saved = await client.request('PUT', '/api/user/webhook', { url: hookUrl });
  expect(saved.status).toBe(200);
  const db = server.database.db;
  return {
    server,
    pipeline,
    owner: client,
    ownerId: user.id,
    dns,
    hookUrl,
    async finishedCall(set = {}) {
      const [row] = await db
        .insert(calls)
        .values({
          userId: user.id,
          fromNumber: '+447700900123',
          toNumber: '+447700900001',
          status: 'voicemail',
          mode: 'voicemail',
          duration: 37,
          createdAt: new Date(Date.now() - 60_000),
          endedAt: new Date(),
          transcription: 'Hi, it is Dan. Water is coming through my kitchen ceiling, please come now.',
          transcriptionStatus: 'done',
          aiSummary: 'Dan has water coming through the kitchen ceiling and asks you to come now.',
          summaryStatus: 'done',
          urgency: 'urgent',
          urgencyReason: 'water coming through the ceiling',
          ...set,
        })
        .returning();
      for (const hook of server.services.hooks.callFinished) hook(row!.id);
      return row!.id;
    },
    async delivery(id) {
      const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, user.id));
      return id === undefined ? rows.at(-1)! : rows.find((r) => r.id === id)!;
    },
    async secret() {
      return ((await client.get('/api/user/webhook')).body as { secret: string }).secret;
    },
  };
}

const settled = (fx: Fixture, status: 'delivered' | 'failed') =>
  vi.waitFor(async () => expect((await fx.delivery())?.status).toBe(status), { timeout: 15_000, interval: 20 });

describe('a finished call is posted to the owner’s webhook', () => {
  it('posts the call once after its summary, signed so that an independent HMAC check over t.body with the secret passes', async () => {
    f = await start();
    const callId = await f.finishedCall();
    await settled(f, 'delivered');

    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hooks/catch/1/abc');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-callkeeper-event']).toBe('call.finished');
    const secret = await f.secret();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, secret, Math.floor(Date.now() / 1000))).toBe(true);
    // The check can fail: another secret, a changed body or an old timestamp do not verify.
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, `${secret}x`, Math.floor(Date.now() / 1000))).toBe(false);
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body.replace('Dan', 'Don'), secret, Math.floor(Date.now() / 1000))).toBe(false);
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, secret, Math.floor(Date.now() / 1000) + 301)).toBe(false);

    const body = JSON.parse(req.body);
    const delivery = await f.delivery();
    expect(body).toEqual({
      event: 'call.finished',
      deliveryId: delivery.id,
      test: false,
      call: {
        id: callId,
        startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        endedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        caller: '+447700900123',
        did: '+447700900001',
        status: 'voicemail',
        mode: 'voicemail',
        durationSeconds: 37,
        summary: 'Dan has water coming through the kitchen ceiling and asks you to come now.',
        transcript: 'Hi, it is Dan. Water is coming through my kitchen ceiling, please come now.',
        urgency: 'urgent',
        urgencyReason: 'water coming through the ceiling',
        consoleUrl: `https://callkeeper.example.co.uk/dashboard?call=${callId}`,
      },
    });
    expect(req.headers['x-callkeeper-delivery']).toBe(String(delivery.id));
    expect(delivery).toMatchObject({ callId, event: 'call.finished', status: 'delivered', attempts: 1, httpStatus: 200, lastError: null });

    // The log the console shows.
    const log = (await f.owner.get('/api/user/webhook')).body;
    expect(log.deliveries).toEqual([expect.objectContaining({ id: delivery.id, status: 'delivered', attempts: 1, httpStatus: 200, callId })]);
    // A call is posted once, ever: queuing it again (a re-run post-call job) adds nothing.
    const call = (await f.server.database.db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0]!;
    expect(await f.server.services.webhooks.enqueueCall(call)).toBe(false);
  });

  it('a missed call without a summary is posted too, with summary and transcript null', async () => {
    f = await start();
    const callId = await f.finishedCall({ status: 'missed', duration: 0, transcription: null, transcriptionStatus: 'none', aiSummary: null, summaryStatus: 'none', urgency: null, urgencyReason: null });
    await settled(f, 'delivered');
    expect(JSON.parse(receiver.requests[0]!.body).call).toMatchObject({ id: callId, status: 'missed', summary: null, transcript: null, urgency: null });
  });

  it('nothing is posted for an owner without a webhook URL', async () => {
    f = await start();
    expect((await f.owner.request('PUT', '/api/user/webhook', { url: null })).body.message).toBe('Webhook turned off');
    const callId = await f.finishedCall();
    // The post-call job hands a settled call to the webhooks last (after the owner's text): only
    // once it is done has the code under test had its chance to queue a delivery.
    await vi.waitFor(async () => expect((await f!.pipeline.queue.byKey(`post-call:${callId}`))?.status).toBe('done'), { timeout: 10_000, interval: 20 });
    expect(await f.server.database.db.select().from(webhookDeliveries)).toEqual([]);
    expect(receiver.requests).toEqual([]);
  });
});

describe('retries through the job queue', () => {
  it('after two 500s the third attempt delivers; the log keeps the attempts', async () => {
    f = await start();
    receiver.script.push({ status: 500, body: 'upstream exploded' }, { status: 503 });
    await f.finishedCall();
    await settled(f, 'delivered');
    expect(receiver.requests).toHaveLength(3);
    expect(await f.delivery()).toMatchObject({ status: 'delivered', attempts: 3, httpStatus: 200, lastError: null });
    // Each attempt is signed afresh and carries the same delivery id, for de-duplication.
    expect(new Set(receiver.requests.map((r) => r.headers['x-callkeeper-delivery'])).size).toBe(1);
  });

  it('a receiver that does not answer in time is tried again, then delivers', async () => {
    f = await start();
    receiver.script.push('hang');
    await f.finishedCall();
    await settled(f, 'delivered');
    expect(receiver.requests).toHaveLength(2);
    expect(await f.delivery()).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('408 and 429 are retried too', async () => {
    f = await start();
    receiver.script.push({ status: 408 }, { status: 429 });
    await f.finishedCall();
    await settled(f, 'delivered');
    expect(receiver.requests).toHaveLength(3);
  });

  it('a 400 is not retried: failed after one attempt, with the status and the receiver’s answer in the log', async () => {
    f = await start();
    receiver.script.push({ status: 400, body: 'bad field "caller"' });
    await f.finishedCall();
    await settled(f, 'failed');
    expect(receiver.requests).toHaveLength(1);
    expect(await f.delivery()).toMatchObject({ status: 'failed', attempts: 1, httpStatus: 400, lastError: 'the receiver answered HTTP 400: bad field "caller"' });
  });

  it('a redirect is not followed (and not retried)', async () => {
    f = await start();
    receiver.script.push({ status: 302, headers: { location: `https://receiver.example:${receiver.port}/elsewhere` } });
    await f.finishedCall();
    await settled(f, 'failed');
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hooks/catch/1/abc']);
    expect((await f.delivery()).lastError).toMatch(/^the receiver answered HTTP 302 \(redirects are not followed/);
  });

  it('gives up after the last attempt when the receiver keeps failing', async () => {
    f = await start();
    receiver.script.push({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    await f.finishedCall();
    await settled(f, 'failed');
    expect(receiver.requests).toHaveLength(4); // maxAttempts
    expect(await f.delivery()).toMatchObject({ status: 'failed', attempts: 4, httpStatus: 500, lastError: 'the receiver answered HTTP 500' });
  });

  it('a network error (nothing listening) is retried until the last attempt, then failed with the reason', async () => {
    f = await start();
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    expect((await f.owner.request('PUT', '/api/user/webhook', { url: `https://receiver.example:${closed}/hook` })).status).toBe(200);
    await f.finishedCall();
    await settled(f, 'failed');
    expect(await f.delivery()).toMatchObject({ attempts: 4, httpStatus: null, lastError: 'could not reach the receiver: nothing answered at that address (the connection was refused) (ECONNREFUSED)' });
  });

  it('DNS rebinding: a name that pointed at the receiver when saved but at a private address at delivery is refused, nothing is sent', async () => {
    f = await start();
    f.dns.set('receiver.example', '10.0.0.7');
    await f.finishedCall();
    await settled(f, 'failed');
    expect(receiver.requests).toEqual([]);
    expect(await f.delivery()).toMatchObject({ attempts: 1, lastError: 'receiver.example resolves to 10.0.0.7, a private address; webhooks only go to public internet addresses' });
  });
});

describe('durable delivery', () => {
  it('an event queued while no worker runs is delivered once by the next process', async () => {
    f = await start();
    await f.pipeline.stop();
    const queued = (await f.server.services.webhooks.enqueueTest(f.ownerId))!;
    expect(await f.delivery()).toMatchObject({ id: queued.id, status: 'pending', attempts: 0 });
    // A restarted process: a new service and worker over the same database.
    const next = new WebhookService(f.server.services, { resolver: async () => [{ address: '127.0.0.1', family: 4 }], testReceiver: { allowLoopback: true, ca: RECEIVER_CA }, pollMs: 20 });
    next.start();
    try {
      await settled(f, 'delivered');
    } finally {
      await next.stop();
    }
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers['x-callkeeper-delivery']).toBe(String(queued.id));
  });

  it('a delivery whose worker died during its last attempt is settled as failed by housekeeping; one still queued is left alone', async () => {
    f = await start();
    await f.pipeline.stop();
    const services = f.server.services;
    const dead = (await services.webhooks.enqueueTest(f.ownerId))!;
    const waiting = (await services.webhooks.enqueueTest(f.ownerId))!;
    // What a process killed mid-request leaves behind: its last attempt claimed, the lease long expired.
    await services.database.db
      .update(jobs)
      .set({ status: 'running', attempts: sql`${jobs.maxAttempts}`, lockedAt: new Date(Date.now() - 24 * 3600_000) })
      .where(eq(jobs.key, webhookKey(dead.id)));
    await f.pipeline.sweep();
    expect(await f.delivery(dead.id)).toMatchObject({ status: 'failed', lastError: 'the appliance stopped during the last attempt' });
    expect(await f.delivery(waiting.id)).toMatchObject({ status: 'pending', lastError: null });
    const log = (await f.owner.get('/api/user/webhook')).body as { deliveries: { id: number; status: string }[] };
    expect(log.deliveries.find((d) => d.id === dead.id)?.status).toBe('failed');
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('the owner’s webhook settings', () => {
  it('Send test event: 202, the receiver gets a signed test event; a second one while it is on its way is refused', async () => {
    f = await start();
    let release!: (status: number) => void;
    receiver.script.push({ hold: new Promise<number>((r) => (release = r)) });
    const res = await f.owner.post('/api/user/webhook/test');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ message: 'Test event queued', delivery: { event: 'webhook.test', status: 'pending', callId: null } });
    await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const again = await f.owner.post('/api/user/webhook/test');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A test event is already on its way; wait for it to be delivered or to fail');
    release(204);
    await settled(f, 'delivered');
    const req = receiver.requests[0]!;
    expect(JSON.parse(req.body)).toMatchObject({ event: 'webhook.test', test: true, deliveryId: res.body.delivery.id, call: { id: 0, caller: '+447700900123' } });
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, await f.secret(), Math.floor(Date.now() / 1000))).toBe(true);
    expect(await f.delivery()).toMatchObject({ status: 'delivered', httpStatus: 204 });
  });

  it('Send test event: 5 per 15 minutes per owner, each delivered; the 6th press is 429 and reaches nobody', async () => {
    f = await start();
    const ids: number[] = [];
    // Only this owner's test events: a receiver shared across tests may still hear a late retry from an earlier one.
    const received = () => receiver.requests.filter((r) => ids.includes((JSON.parse(r.body) as { deliveryId: number }).deliveryId)).length;
    for (let i = 1; i <= 5; i++) {
      const res = await f.owner.post('/api/user/webhook/test');
      expect(res.status).toBe(202);
      ids.push(res.body.delivery.id);
      await settled(f, 'delivered');
      expect(received()).toBe(i);
    }
    const sixth = await f.owner.post('/api/user/webhook/test');
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toBe('Too many attempts. Please wait 15 minutes and try again.');
    const tests = await f.server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.event, 'webhook.test'));
    expect(tests.map((d) => d.id)).toEqual(ids);
    expect(received()).toBe(5);
  });

  it('Send test event without a URL: 400 "Save a webhook URL first"', async () => {
    f = await start();
    await f.owner.request('PUT', '/api/user/webhook', { url: null });
    const res = await f.owner.post('/api/user/webhook/test');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Save a webhook URL first');
  });

  it('rotating the secret makes a new one, and the next delivery is signed with it', async () => {
    f = await start();
    const before = await f.secret();
    const rotated = await f.owner.post('/api/user/webhook/rotate-secret');
    expect(rotated.status).toBe(200);
    const after = rotated.body.webhook.secret as string;
    expect(after).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
    expect(await f.secret()).toBe(after);
    await f.owner.post('/api/user/webhook/test');
    await settled(f, 'delivered');
    const req = receiver.requests[0]!;
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, after, now)).toBe(true);
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, before, now)).toBe(false);
  });

  it('is owner-scoped: another owner sees their own (empty) webhook and log, and needs a session', async () => {
    f = await start();
    await f.finishedCall();
    await settled(f, 'delivered');
    const other = await activeCustomer(f.server);
    const theirs = (await other.client.get('/api/user/webhook')).body;
    expect(theirs).toMatchObject({ url: null, deliveries: [] });
    expect(theirs.secret).not.toBe(await f.secret());
    const anonymous = await fetch(`${f.server.url}/api/user/webhook`);
    expect(anonymous.status).toBe(401);
  });

  it('the data export has the webhook URL and the delivery log, never the secret', async () => {
    f = await start();
    await f.finishedCall();
    await settled(f, 'delivered');
    const res = await f.owner.get('/api/user/export');
    expect(res.status).toBe(200);
    expect(res.body.webhook).toEqual({
      url: f.hookUrl,
      deliveries: [expect.objectContaining({ event: 'call.finished', status: 'delivered', attempts: 1, httpStatus: 200 })],
    });
    expect(res.text).not.toContain(await f.secret());
  });
});
