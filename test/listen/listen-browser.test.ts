// Listen in from the browser (issue 54) on the real Asterisk 20.17.0 with the project's
// configuration: a SIPp caller talks with the agent; the owner, on the Live page in Debian's
// Chromium with a fake microphone playing a tone, presses Listen. The page hears the caller
// (a tone the caller sends, on the page's WebRTC leg); the caller hears nothing of the owner's
// microphone; Stop listening leaves the call going.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { waitUntil } from '../helpers/wait.js';
import { toneMs } from '../pbx-real/audio.js';
import { realPbxAvailability } from '../pbx-real/harness.js';
import { livePageOnRealPbx, toneSamples } from './live-page.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 240_000 });

const OWNER_HZ = 1300;
const CALLER_HZ = 700;

describe.skipIf(!real.ok)('listening in from the browser, on the real PBX', () => {
  const live = livePageOnRealPbx('listen-');

  it('the page hears the caller; the caller hears nothing of the owner; stopping leaves the call going', async () => {
    const h = live.pbx();
    // The owner's microphone plays a tone all along: were the listen not one way, the caller would hear it.
    const { owner, call, row, page, audio, card } = await live.agentCallOnLivePage('+447700900832', OWNER_HZ);
    const pressedAt = performance.now();
    await card.getByRole('button', { name: 'Listen' }).click();
    await expect.poll(() => page.getByTestId(`live-control-state-${row.id}`).textContent(), { timeout: 60_000 }).toBe('Listening: the caller cannot hear you');
    const { callLiveEvents } = tablesOf(h.server.database.db);
    await waitUntil(async () => {
      const e = await h.server.database.db.select().from(callLiveEvents).where(eq(callLiveEvents.callId, row.id));
      if (!e.length) throw new Error('the listen is not bridged yet');
    }, 60_000);

    // The caller speaks (a tone, told apart from anything the agent says): the page hears it.
    const tone = toneSamples(CALLER_HZ, 3);
    const spokeAt = performance.now();
    await call.media.say(tone);
    await waitUntil(() => expect(toneMs(audio.heard(spokeAt), CALLER_HZ)).toBeGreaterThan(1000), 60_000, 100);

    await card.getByRole('button', { name: 'Stop listening' }).click();
    await expect.poll(() => page.getByTestId(`live-control-state-${row.id}`).textContent(), { timeout: 30_000 }).toBe('Ended');
    await audio.stop();
    // The caller is still on the call, and never heard the owner's microphone.
    const { calls } = tablesOf(h.server.database.db);
    const [still] = await h.server.database.db.select().from(calls).where(eq(calls.id, row.id));
    expect(still!.endedAt).toBeNull();
    // (The take-over test, take-over-browser.test.ts, shows the same tone does reach a caller once bridged.)
    expect(toneMs(call.media.heard(pressedAt), OWNER_HZ)).toBe(0);
    await call.hangUp();
    expect(await h.finishedRow(owner.did, 90_000)).toMatchObject({ mode: 'agent', takenOverBy: null });
  });
});
