// Admission by arrival rate (issue 47), on a real Asterisk called by SIPp: with the node's
// set-up rate configured low (ADMISSION_MAX_SETUPS_PER_SECOND=0.01: one new call in any 100 s),
// callers arriving faster than that get SIP 503 before anything is answered, so nobody is
// answered and left without the greeting; the caller who was taken hears the greeting and
// leaves a stored message. Once the core refuses, it tells Asterisk (the dialplan's
// CORE_FULL_UNTIL), and Asterisk refuses the next caller itself, without the core. No timing
// is asserted: the low rate keeps the window open for the whole test.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_UNTIL_VARIABLE } from '../../pbx/admission/admission-gate.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const REFUSAL = 'node full: refusing a new call before answering (SIP 503)';

describe.skipIf(!real.ok)('callers arriving faster than the configured set-up rate', { timeout: 300_000 }, () => {
  let h: RealPbx | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it('get 503 before any is answered, the caller taken hears the greeting and leaves a message, and Asterisk then refuses by itself', async () => {
    h = await startRealPbx({ env: { ADMISSION_MAX_SETUPS_PER_SECOND: '0.01' } });
    const firms = await Promise.all(Array.from({ length: 5 }, (_, i) => h!.business({ businessName: `Firm ${i + 1}` })));
    const from = (i: number) => `+4477009008${String(i).padStart(2, '0')}`;

    // The first caller is the one set-up the rate allows: answered, and hearing the greeting.
    const taken = await h.call(firms[0]!.did, from(0));
    await heardGreetingAndBeep(taken, 700, 120_000);

    // Three more in the same instant, while the first is still talking: all refused before the answer.
    const burst = await h.calls(firms.slice(1, 4).map((f, i) => ({ did: f.did, from: from(i + 1) })));
    const refused = await burst.done;
    expect(refused.signalling.map((s) => s.final)).toEqual([503, 503, 503]);
    expect(refused.exitCode).toBe(0);

    // The core, refusing, asked Asterisk to refuse too: the next caller never reaches the core.
    await waitUntil(async () => {
      const { value } = await h!.asterisk.ariGet<{ value: string }>(`/asterisk/variable?variable=${FULL_UNTIL_VARIABLE}`);
      if (!(Number(value) > 0)) throw new Error(`${FULL_UNTIL_VARIABLE} not set yet (${value})`);
    }, 30_000);
    const next = await h.call(firms[4]!.did, from(4));
    expect((await next.done).signalling.map((s) => s.final)).toEqual([503]);
    const coreRefusals = h.coreLog.filter((l) => l.msg === REFUSAL);
    expect(coreRefusals.map((l) => l.from)).not.toContain(from(4));
    // Whatever the core refused itself, it refused for the rate, saying so.
    expect(new Set(coreRefusals.map((l) => l.reason))).toEqual(new Set(['1 new call in the last 100 s (limit 0.01 a second)']));

    // The caller taken leaves their message; it is stored as they said it.
    const message = speech('Hello, this is the first caller. Please ring me back about the boiler.');
    await taken.media.say(message);
    await taken.done;
    const row = await h.finishedRow(firms[0]!.did, 60_000);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(envelopeMatch(message, readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.5);
    // Nobody refused has a call row: they were never answered.
    expect((await Promise.all(firms.slice(1).map((f) => h!.rows(f.did)))).flat()).toEqual([]);
  });
});
