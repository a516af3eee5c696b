import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { insertUser } from '../../core/accounts/users.js';
import { tablesOf, type Tables, type Call, type NewUser } from '../../core/db/schema.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import type { PostCallEngines, PostCallOptions } from '../../core/post-call/service.js';
import { createCallPipeline, type CallPipeline } from '../../root/call-pipeline.js';
import type { Services } from '../../core/services.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';
import { startTwilioDouble, type TwilioDouble } from '../doubles/twilio/server.js';

/** What the composition root (root/compose.ts) starts for finished calls. */
export type Pipeline = CallPipeline;

/** The root's call pipeline on a test server's services: the post-call jobs, the webhooks' worker, the call-back reminders. */
export function createPipeline(services: Services, engines: PostCallEngines = {}, options: PostCallOptions = {}): Pipeline {
  return createCallPipeline(services, engines, options);
}

/** Fast retries for tests: the same policy shape as production, in milliseconds. */
export const FAST: PostCallOptions = {
  pollMs: 20,
  heartbeatMs: 200,
  leaseMs: 2_000,
  backoff: { baseMs: 20, maxMs: 100, jitter: 0 },
  maxAttempts: 6,
  notifyAnywayFromAttempt: 3,
};

export const DID = '+447700900001';
export const OWNER_MOBILE = '+447700900222';
export const CALLER = '+447700900123';

export interface Harness {
  server: TestServer;
  twilio: TwilioDouble;
  pipeline: Pipeline;
  ownerId: number;
  /** Starts another pipeline on the same database (a restarted process). */
  restart(engines?: PostCallEngines, options?: PostCallOptions): Pipeline;
  call(id: number): Promise<Call>;
  jobOf(callId: number): Promise<Tables['jobs']['$inferSelect']>;
  attempts(callId: number): Promise<(Tables['notifications']['$inferSelect'])[]>;
  /** Inserts a finished call as the PBX would, copying `recording` into $DATA_DIR/recordings/; to the harness's owner unless `userId` and `toNumber` say another. */
  finishedCall(opts?: { status?: Call['status']; mode?: Call['mode']; recording?: string; createdAt?: Date; userId?: number; toNumber?: string }): Promise<number>;
  /** What the PBX does once the call row is final. */
  fireCallFinished(callId: number): void;
  close(): Promise<void>;
}

export async function startHarness(opts: {
  env?: Record<string, string>;
  engines?: PostCallEngines;
  options?: PostCallOptions;
  owner?: Partial<NewUser>;
  start?: boolean;
  twilio?: Parameters<typeof startTwilioDouble>[0];
  log?: TestServerOptions['log'];
} = {}): Promise<Harness> {
  const twilio = await startTwilioDouble(opts.twilio);
  const server = await startTestServer({
    env: {
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_API_BASE: twilio.url,
      ...opts.env,
    },
    log: opts.log,
  });
  const db = server.database.db;
  const { calls, jobs, notifications } = tablesOf(db);
  const owner = await insertUser(db, {
    email: `owner-${Math.random().toString(36).slice(2)}@example.co.uk`,
    passwordHash: 'not-used',
    accountStatus: 'active',
    businessName: 'Acme Plumbing',
    smsEnabled: true,
    whatsappEnabled: false,
    notificationNumber: OWNER_MOBILE,
    ...opts.owner,
  });
  const pipelines: Pipeline[] = [];
  const make = (engines?: PostCallEngines, options?: PostCallOptions) => {
    const p = createPipeline(server.services, engines ?? opts.engines, { ...FAST, ...opts.options, ...options });
    pipelines.push(p);
    return p;
  };
  const pipeline = make();
  if (opts.start !== false) pipeline.start();

  return {
    server,
    twilio,
    pipeline,
    ownerId: owner.id,
    restart(engines, options) {
      const p = make(engines, options);
      p.start();
      return p;
    },
    call: async (id) => (await db.select().from(calls).where(eq(calls.id, id)).limit(1))[0]!,
    jobOf: async (id) => (await db.select().from(jobs).where(eq(jobs.key, postCallKey(id))).limit(1))[0]!,
    attempts: async (id) => await db.select().from(notifications).where(eq(notifications.callId, id)),
    async finishedCall({ status = 'voicemail', mode = 'voicemail', recording, createdAt = new Date(), userId = owner.id, toNumber = DID } = {}) {
      const [row] = await db
        .insert(calls)
        .values({ userId, fromNumber: CALLER, toNumber, status, mode, duration: recording ? 12 : 0, createdAt, endedAt: new Date() })
        .returning();
      if (recording) {
        const name = `call-${row!.id}.wav`;
        fs.mkdirSync(path.join(server.dataDir, 'recordings'), { recursive: true });
        fs.copyFileSync(recording, path.join(server.dataDir, 'recordings', name));
        await db.update(calls).set({ recordingFile: name }).where(eq(calls.id, row!.id));
      }
      return row!.id;
    },
    fireCallFinished(callId) {
      for (const hook of server.services.hooks.callFinished) hook(callId);
    },
    async close() {
      for (const p of pipelines) await p.stop();
      await server.close();
      await twilio.close();
    },
  };
}
