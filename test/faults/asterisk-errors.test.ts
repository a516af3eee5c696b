// Asterisk answering a REST call with 500 (a module error, a full spool): the caller is never
// left in dead air and the call row is still written and announced once.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calls } from '../helpers/tables.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { APP, CALLER, startHarness, type Harness } from '../pbx/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function finishedRow(harness: Harness, channelId: string) {
  return vi.waitFor(
    async () => {
      const [row, ...more] = await harness.server.database.db.select().from(calls).where(eq(calls.channelId, channelId));
      if (!row || more.length || !row.endedAt) throw new Error('call not finished yet');
      return row;
    },
    { timeout: 20_000 },
  );
}

describe('Asterisk answering 500', () => {
  it.each([
    ['on answering: the caller is hung up rather than left ringing', 'channels.answer'],
    ['on starting the recording: the core hangs up politely', 'channels.record'],
  ])('%s, the call is logged as missed and announced once', async (_outcome, operation) => {
    h = await startHarness({ timeScale: 20 });
    const biz = await h.business({ businessName: 'Broken Spool Ltd' });
    h.sim.failOperation(operation, 500, 5);
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech('Hello, is anyone there?') }] } });
    const outcome = await call.done;
    expect(outcome.hungUpBy).toBe('app');
    const row = await finishedRow(h, call.channelId);
    expect(row).toMatchObject({ status: 'missed', recordingFile: null });
    await vi.waitFor(() => expect(h!.finished).toEqual([row.id]));
  });

  it('on playing the greeting: the built-in greeting plays instead, the call carries on and the message is kept', async () => {
    h = await startHarness({ timeScale: 20 });
    const biz = await h.business({ businessName: 'Quiet Speaker Ltd' });
    h.sim.failOperation('channels.play', 500, 1); // the owner's greeting
    const call = h.sim.call({
      app: APP,
      from: CALLER,
      did: biz.did,
      script: { onRecord: [{ say: callerSpeech('Hi, it is Sam, please call me back about the quote.') }, { press: '#' }] },
    });
    const outcome = await call.done;
    expect(outcome.heard[0]).toMatch(/^sound:(?!appliance\/)/); // Asterisk's built-in greeting instead
    const row = await finishedRow(h, call.channelId);
    expect(row.status).toBe('voicemail');
    expect(row.recordingFile).toBeTruthy();
  });

  it('on the beep alone: the caller is still recorded', async () => {
    h = await startHarness({ timeScale: 20 });
    const biz = await h.business({ businessName: 'No Beep Ltd' });
    await h.prompt("You've reached No Beep Ltd. For quality purposes, this call is being recorded. Please leave your name and message after the tone.", 'female');
    h.sim.failOperation('channels.play', 500, 1, 1); // the greeting plays; the next play (the beep) is refused
    const call = h.sim.call({
      app: APP,
      from: CALLER,
      did: biz.did,
      script: { onRecord: [{ say: callerSpeech('Please call me back about the leak.') }, { press: '#' }] },
    });
    const outcome = await call.done;
    expect(outcome.heard).not.toContain('sound:beep');
    const row = await finishedRow(h, call.channelId);
    expect(row.status).toBe('voicemail');
  });
});
