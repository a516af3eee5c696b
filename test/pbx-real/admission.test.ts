// Refusing cleanly past the knee, on a real Asterisk called by SIPp: with the node's limit at 5
// calls, the 6th and 7th callers get SIP 503 before anything is answered (so a carrier or
// Kamailio can try elsewhere), and the 5 calls in progress all finish with their messages
// stored. Once by Asterisk's own limit (PBX_MAX_CALLS → maxcalls), once by the core's
// admission (ADMISSION_MAX_CALLS → ARI hang-up with reason congestion → 503), and once by the
// limit the entrypoint renders from a small RTP range when PBX_MAX_CALLS is unset.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx, type RealPbxOptions } from './harness.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('a node full at 5 calls refuses the 6th and 7th with 503', { timeout: 300_000 }, () => {
  let h: RealPbx | undefined;
  afterEach(async () => {
    await h?.close();
  });

  async function fiveInProgressThenTwoMore(opts: RealPbxOptions) {
    h = await startRealPbx(opts);
    const firms = await Promise.all(Array.from({ length: 7 }, (_, i) => h!.business({ businessName: `Firm ${i + 1}` })));
    const from = (i: number) => `+4477009007${String(i).padStart(2, '0')}`;
    const first = await h.calls(firms.slice(0, 5).map((f, i) => ({ did: f.did, from: from(i) })));
    // All five are answered and hearing their greeting: the node is full.
    await Promise.all(first.calls.map((c) => heardGreetingAndBeep(c, 700, 120_000)));
    const late = await h.calls(firms.slice(5).map((f, i) => ({ did: f.did, from: from(i + 5) })));
    const refused = await late.done;
    // The five who got through leave their messages and the box hangs up after each.
    const messages = first.calls.map((_, i) => speech(`This is caller number ${i + 1}. Please ring me back about job ${i + 1}.`));
    await Promise.all(first.calls.map((c, i) => c.media.say(messages[i]!)));
    const answered = await first.done;
    return { firms, refused, answered, messages };
  }

  async function expectStored(pbx: RealPbx, dids: string[], messages: Int16Array[]) {
    for (const [i, did] of dids.entries()) {
      const row = await pbx.finishedRow(did, 60_000);
      expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
      // Their own words (on a machine at load 20+ the first moments may be clipped: stored is what counts here).
      expect(envelopeMatch(messages[i]!, readWavSamples(path.join(pbx.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.5);
    }
  }

  it("Asterisk's own limit (PBX_MAX_CALLS=5): 503 from the SIP edge, the core never sees the 6th and 7th", async () => {
    const { firms, refused, answered, messages } = await fiveInProgressThenTwoMore({ asteriskEnv: { PBX_MAX_CALLS: '5' } });
    expect(refused.signalling.map((s) => s.final)).toEqual([503, 503]);
    expect(refused.exitCode).toBe(0);
    expect(answered.signalling.map((s) => s.final)).toEqual([200, 200, 200, 200, 200]);
    await expectStored(h!, firms.slice(0, 5).map((f) => f.did), messages);
    expect((await Promise.all(firms.slice(5).map((f) => h!.rows(f.did)))).flat()).toEqual([]);
  });

  it('the RTP range’s own limit (20 ports, PBX_MAX_CALLS unset): 503 before the range runs out, never 488', async () => {
    // 20 ports are 10 pairs: 5 callers, each with room for an agent's or a transfer's second
    // stream. Before, maxcalls was unlimited and a caller past the pairs got 488.
    const { firms, refused, answered, messages } = await fiveInProgressThenTwoMore({ rtpPorts: 20 });
    expect(refused.signalling.map((s) => s.final)).toEqual([503, 503]);
    expect(refused.exitCode).toBe(0);
    expect(answered.signalling.map((s) => s.final)).toEqual([200, 200, 200, 200, 200]);
    await expectStored(h!, firms.slice(0, 5).map((f) => f.did), messages);
    expect((await Promise.all(firms.slice(5).map((f) => h!.rows(f.did)))).flat()).toEqual([]);
  });

  it("the core's admission (ADMISSION_MAX_CALLS=5): refused before the answer with 503, logged with the reason", async () => {
    const { firms, refused, answered, messages } = await fiveInProgressThenTwoMore({ env: { ADMISSION_MAX_CALLS: '5' } });
    expect(refused.signalling.map((s) => s.final)).toEqual([503, 503]);
    expect(refused.exitCode).toBe(0);
    expect(answered.signalling.map((s) => s.final)).toEqual([200, 200, 200, 200, 200]);
    await expectStored(h!, firms.slice(0, 5).map((f) => f.did), messages);
    expect((await Promise.all(firms.slice(5).map((f) => h!.rows(f.did)))).flat()).toEqual([]);
    const refusals = h!.coreLog.filter((l) => l.msg === 'node full: refusing a new call before answering (SIP 503)');
    expect(refusals.map((l) => l.reason)).toEqual(['5 calls in progress (limit 5)', '5 calls in progress (limit 5)']);
  });
});
