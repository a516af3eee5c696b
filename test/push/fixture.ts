// The push tests' box: the real server and post-call pipeline, push alerts' worker on, the
// push-service double on loopback (its address let through and its certificate trusted by the
// service's test seam, as the webhooks' tests do), and an owner texted by SMS (the outbox gateway).
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import type { Call } from '../../core/db/schema.js';
import { tablesOf } from '../../core/db/schema.js';
import type { PushOptions } from '../../core/push/service.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createPipeline, FAST, type Pipeline } from '../pipeline/harness.js';
import { PUSH_SERVICE_CA, startPushService, type DoubleSubscription, type PushServiceDouble } from '../doubles/web-push/push-service.js';

export const CALLER = '+447700900123';
const OWNER_MOBILE = '+447700900222';

export interface PushBox {
  server: TestServer;
  pipeline: Pipeline;
  owner: ApiClient;
  ownerId: number;
  /** Subscribes a new device of the double for the owner (or `client`), with preferences. */
  device(prefs?: Record<string, unknown>, client?: ApiClient): Promise<{ id: number; sub: DoubleSubscription; deviceId: string }>;
  finishedCall(set?: Partial<Call>): Promise<number>;
  /** The owner's summary SMS rows of a call, sent. */
  texts(callId: number): Promise<number>;
  close(): Promise<void>;
}

const FAST_PUSH: PushOptions = { backoff: { baseMs: 50, maxMs: 200, jitter: 0 }, maxAttempts: 4, pollMs: 20, leaseMs: 5_000, timeoutMs: 1_000 };

export async function startPushBox(double: PushServiceDouble, push: PushOptions = {}): Promise<PushBox> {
  const server = await startTestServer({
    push: { testPushService: { allowLoopback: true, ca: PUSH_SERVICE_CA }, ...FAST_PUSH, ...push },
    background: { push: true },
  });
  const pipeline = createPipeline(server.services, {}, FAST);
  pipeline.start();
  const { client, user } = await activeCustomer(server);
  const db = server.database.db;
  const { calls, notifications, users } = tablesOf(db);
  await db.update(users).set({ smsEnabled: true, whatsappEnabled: false, notificationNumber: OWNER_MOBILE }).where(eq(users.id, user.id));
  double.expectKey = ((await client.get('/api/user/push/key')).body as { publicKey: string }).publicKey;
  return {
    server,
    pipeline,
    owner: client,
    ownerId: user.id,
    async device(prefs = {}, as = client) {
      const sub = double.subscribe();
      const made = await as.post('/api/user/push/devices', { ...sub, name: 'Pixel 8' });
      if (made.status !== 201) throw new Error(`subscribe failed: ${made.status} ${made.text}`);
      const id = made.body.device.id as number;
      if (Object.keys(prefs).length) {
        const saved = await as.patch(`/api/user/push/devices/${id}`, prefs);
        if (saved.status !== 200) throw new Error(`preferences failed: ${saved.status} ${saved.text}`);
      }
      return { id, sub, deviceId: sub.endpoint.split('/').at(-1)! };
    },
    async finishedCall(set = {}) {
      const [row] = await db
        .insert(calls)
        .values({
          userId: user.id,
          fromNumber: CALLER,
          toNumber: '+447700900001',
          status: 'voicemail',
          mode: 'voicemail',
          duration: 37,
          createdAt: new Date(server.services.now().getTime() - 60_000),
          endedAt: server.services.now(),
          transcription: 'Hi, it is Dan. The boiler has stopped and there is no hot water.',
          transcriptionStatus: 'done',
          aiSummary: 'Dan says the boiler has stopped and there is no hot water.\nHe asks for a call back today.',
          summaryStatus: 'done',
          urgency: 'normal',
          ...set,
        })
        .returning();
      for (const hook of server.services.hooks.callFinished) hook(row!.id);
      return row!.id;
    },
    async texts(callId) {
      const rows = await db.select().from(notifications).where(eq(notifications.callId, callId));
      return rows.filter((r) => r.channel === 'sms' && r.status === 'sent' && r.to === OWNER_MOBILE).length;
    },
    async close() {
      await pipeline.stop();
      await server.close();
    },
  };
}

/** Waits until `check` holds (generous: the machine is shared). */
export const until = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 20_000, interval: 25 });

/** The file's push-service double: started once, and emptied after each test (what arrived, was refused or scripted). */
export function usePushDouble(): () => PushServiceDouble {
  let double: PushServiceDouble | undefined;
  beforeAll(async () => {
    double = await startPushService();
  });
  afterAll(() => double?.close());
  afterEach(() => {
    if (!double) return;
    double.arrived.length = 0;
    double.refused.length = 0;
    double.script.length = 0;
    double.always = 201;
  });
  return () => double!;
}

/** A minute of the day as quiet hours are written ("07:05"). */
export const hhmm = (minute: number) => `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
