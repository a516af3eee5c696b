// Issue 61's silent caller: the knee bench's callers went on sending audio after their call ended
// (until the whole SIPp batch was over), to the RTP port Asterisk then gave a later caller.
// Asterisk's strict RTP learnt that stream (four packets in sequence) and, with symmetric RTP,
// sent the new call's greeting to the old caller's socket; when the new caller's own first
// packet came more than 5 s after the answer, Asterisk locked on the old stream and the new
// caller heard no greeting and no beep. A phone stops its audio when its call ends: so must the
// test caller (test/pbx-real/sipp.ts), whichever side hangs up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait.js';
import { heardBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('a test caller stops its audio when its call ends (issue 61)', { timeout: 180_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the box hangs up on the first caller of a batch while the second is still talking to it: the first caller’s phone goes quiet then, not when the batch ends', async () => {
    const { did } = await h.business({ businessName: 'Quiet Line Joinery' });
    // Two callers in one SIPp batch, the second placed 10 s after the first, so it is still in its
    // call when the box hangs up on the first (neither speaks: the silence limit ends each call).
    const batch = await h.calls([{ did, from: '+447700900601' }, { did, from: '+447700900602' }], { ratePerSecond: 0.1 });
    const [first, second] = [batch.calls[0]!, batch.calls[1]!];
    await heardBeep(first);
    await waitUntil(() => expect(first.media.ended).toBe(true), 90_000, 50);
    expect(first.media.packetsOut).toBeGreaterThan(0);
    expect(second.media.ended).toBe(false);
    // The second caller hangs up itself: its phone goes quiet too.
    await heardBeep(second);
    await second.hangUp();
    await waitUntil(() => expect(second.media.ended).toBe(true), 30_000, 50);
    expect((await batch.done).exitCode).toBe(0);
  });
});
