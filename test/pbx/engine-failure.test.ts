import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls } from '../helpers/tables.js';
import { FALLBACK_SOUNDS } from '../../dialogue/spoken/sounds.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { APP, CALLER, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  // The TTS engine is broken (e.g. Piper's voice files went missing).
  h = await startHarness({ timeScale: 10, pbx: { prompts: { get: () => Promise.reject(new Error('piper: voice file not found')) } } });
});
afterAll(async () => {
  await h?.close();
});

describe('when the TTS engine fails', () => {
  it('the caller hears Asterisk’s built-in prompts instead of silence and the message is still taken', async () => {
    const biz = await h.business({ businessName: 'Broken Voice Ltd' });
    const call = h.sim.call({
      app: APP,
      from: CALLER,
      did: biz.did,
      script: { onRecord: [{ say: callerSpeech('Hello, please call me back about the invoice from last week.') }, { press: '#' }] },
    });
    const outcome = await call.done;
    expect(outcome.heard).toEqual([FALLBACK_SOUNDS.greeting, 'sound:beep', FALLBACK_SOUNDS.goodbye]);
    const row = await vi.waitFor(async () => {
      const r = (await h.server.database.db.select().from(calls).where(eq(calls.channelId, call.channelId)).limit(1))[0];
      if (!r?.endedAt) throw new Error('not finished');
      return r;
    });
    expect(row.status).toBe('voicemail');
  });

  it('a caller to an unknown number still hears the built-in "not in service" recording', async () => {
    const call = h.sim.call({ app: APP, from: CALLER, did: '+447700900404' });
    expect((await call.done).heard).toEqual([FALLBACK_SOUNDS.notInService]);
  });
});
