// Engines that answer, but with garbage: a proxy's HTML page instead of Whisper's JSON, and a
// language model that writes nothing usable. Nothing is lost and the owner is texted once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { audioKey } from '../doubles/whisper/server.js';
import { speakToWav } from '../pipeline/audio.js';
import { startHarness, type Harness } from '../pipeline/harness.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const SPOKEN = 'Hello, this is Tom from Otley. The kitchen tap is leaking badly. Please ring me back this afternoon.';
const engines = useEngineDoubles();
let dir: string;
let wav: string;
let h: Harness | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-garbage-'));
  wav = speakToWav(dir, 'tom', SPOKEN);
  engines.whisper.transcripts.set(await audioKey(wav), SPOKEN);
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const env = () => engines.env();

describe('engines answering garbage', () => {
  it('Whisper sending an HTML page: treated as down, the owner is texted once, the transcript arrives when it recovers', async () => {
    engines.whisper.alwaysFail = { raw: '<html><body><h1>502 Bad Gateway</h1></body></html>' };
    engines.ollama.replier = () => 'Tom from Otley: kitchen tap leaking badly; call back this afternoon.';
    h = await startHarness({ env: env() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await vi.waitFor(() => expect(h!.twilio.messages).toHaveLength(1), { timeout: 15_000, interval: 20 });
    // The row records the send just after Twilio took the message.
    await vi.waitFor(async () => expect(await h!.call(id)).toMatchObject({ transcription: null, notificationSent: true }), { timeout: 5000, interval: 20 });
    expect((await h.call(id)).recordingFile).toBeTruthy();

    engines.whisper.alwaysFail = null;
    await vi.waitFor(async () => expect((await h!.jobOf(id))?.status).toBe('done'), { timeout: 15_000, interval: 20 });
    expect(await h.call(id)).toMatchObject({ transcription: SPOKEN, transcriptionStatus: 'done' });
    expect(h.twilio.messages).toHaveLength(1);
  });

  it('a model that writes nothing usable: the owner gets the transcript, once, and no invented summary is stored', async () => {
    engines.ollama.always = { reply: '```\n\n```' };
    h = await startHarness({ env: env() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await vi.waitFor(() => expect(h!.twilio.messages).toHaveLength(1), { timeout: 15_000, interval: 20 });
    expect(h.twilio.messages[0]!.body).toContain(SPOKEN);
    // The row says so once the provider's answer is back (the double has the text a moment before).
    await vi.waitFor(async () => expect(await h!.call(id)).toMatchObject({ transcription: SPOKEN, aiSummary: null, notificationSent: true }));
    expect(h.twilio.messages).toHaveLength(1);
  });
});
