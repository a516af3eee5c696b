import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { calls, jobs } from '../helpers/tables.js';
import { createTwilioGateway } from '../../core/notify/twilio-gateway.js';
import { createPostCall, type PostCall } from '../../core/post-call/service.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { createTwilioClient } from '../../core/twilio/client.js';
import { createOllamaLanguageModel } from '../../models/llm/ollama.js';
import { createWhisperServerStt } from '../../models/stt/whisper-server.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { startTwilioDouble, type TwilioDouble } from '../doubles/twilio/server.js';
import { APP, CALLER, startHarness, type Harness } from '../pbx/harness.js';
import { FAST } from './harness.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const MESSAGE = 'Hi, this is Jane Smith. My kitchen tap is leaking. Please call me back on oh seven seven double oh nine hundred.';
const SUMMARY = 'Jane Smith has a leaking kitchen tap and asks for a call back.';
const OWNER_MOBILE = '+447700900333';

const engines = useEngineDoubles({ transcript: MESSAGE, summary: SUMMARY });
let h: Harness;
let twilio: TwilioDouble;
let pipeline: PostCall;

beforeAll(async () => {
  twilio = await startTwilioDouble();
  h = await startHarness({ timeScale: 10 });
  pipeline = createPostCall(
    h.server.services,
    {
      stt: createWhisperServerStt({ url: engines.whisper.url }),
      llm: createOllamaLanguageModel({ host: engines.ollama.url, model: 'llama3.2:3b' }),
      gateway: createTwilioGateway(createTwilioClient({ accountSid: twilio.accountSid, authToken: twilio.authToken, apiBase: twilio.url })),
    },
    FAST,
  );
  pipeline.start();
});
afterAll(async () => {
  await pipeline?.stop();
  await h?.close();
  await twilio?.close();
});

describe('a scripted call on the ARI simulator', () => {
  it('ends as one SMS to the owner with the summary, and the call log holds transcript and summary', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', notificationNumber: OWNER_MOBILE, smsEnabled: true });
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { silence: 800 }, { hangup: true }] } });
    await call.done;

    const db = h.server.database.db;
    const row = await vi.waitFor(
      async () => {
        const r = (await db.select().from(calls).where(eq(calls.channelId, call.channelId)).limit(1))[0];
        const job = r && (await db.select().from(jobs).where(eq(jobs.key, postCallKey(r.id))).limit(1))[0];
        if (job?.status !== 'done') throw new Error('post-call job not done yet');
        return r!;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(row).toMatchObject({ status: 'voicemail', transcription: MESSAGE, transcriptionStatus: 'done', aiSummary: SUMMARY, summaryStatus: 'done', notificationSent: true });
    expect(twilio.messages).toHaveLength(1);
    expect(twilio.messages[0]).toMatchObject({ to: OWNER_MOBILE, from: biz.did });
    expect(twilio.messages[0]!.body).toContain(`New voicemail from ${CALLER} at`);
    expect(twilio.messages[0]!.body).toContain(SUMMARY);
    // Whisper got the 8 kHz recording as 16 kHz mono.
    expect(engines.whisper.requests[0]!.file).toMatchObject({ sampleRate: 16000, channels: 1 });
  });
});
