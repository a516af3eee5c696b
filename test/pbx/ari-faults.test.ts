import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { calls } from '../helpers/tables.js';
import { THANK_YOU } from '../../dialogue/spoken/call-lines.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import type { AriSimulator } from '../ari-sim/simulator.js';
import { signInAdmin } from '../helpers/accounts.js';
import { adminHealth, type HealthReport } from '../helpers/health.js';
import { APP, CALLER, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MESSAGE = 'Hello, it is Priya from number nine. The boiler is making a loud banging noise. Please ring me back today.';

async function rows(harness: Harness, channelId: string) {
  return await harness.server.database.db.select().from(calls).where(eq(calls.channelId, channelId));
}

async function finishedRow(harness: Harness, channelId: string) {
  return vi.waitFor(
    async () => {
      const all = await rows(harness, channelId);
      if (all.length !== 1 || !all[0]!.endedAt) throw new Error('call not finished yet');
      return all[0]!;
    },
    { timeout: 20_000 },
  );
}

function sawEvent(sim: AriSimulator, channelId: string, type: string): boolean {
  return sim.sentEvents.some((e) => {
    const target = (e.playback as { target_uri?: string } | undefined)?.target_uri ?? (e.recording as { target_uri?: string } | undefined)?.target_uri;
    return e.type === type && (target === `channel:${channelId}` || (e.channel as { id?: string } | undefined)?.id === channelId);
  });
}

/** The PBX link's report in /healthz, as an administrator reads it (one session per harness). */
const healthOf = new WeakMap<Harness, Promise<() => Promise<HealthReport>>>();
async function pbxHealth(harness: Harness) {
  if (!healthOf.has(harness)) healthOf.set(harness, signInAdmin(harness.server).then(() => adminHealth(harness.server.url)));
  return (await (await healthOf.get(harness)!)()).components.pbx!;
}

describe('ARI faults (shared/ari/NOTES.md) reproduced in the simulator', () => {
  it('a WebSocket drop during the greeting: after the reconnect the call carries on and the message is stored', async () => {
    h = await startHarness({ timeScale: 10 });
    const biz = await h.business({ businessName: 'Drop Test Ltd' });
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { press: '#' }] } });
    await vi.waitFor(() => expect(sawEvent(h!.sim, call.channelId, 'PlaybackStarted')).toBe(true));
    h.sim.dropWebSocket();
    await vi.waitFor(async () => expect((await pbxHealth(h!)).ok).toBe(false));
    // The greeting ends while nobody listens: its PlaybackFinished is lost for good.
    await vi.waitFor(() => expect(sawEvent(h!.sim, call.channelId, 'PlaybackFinished')).toBe(true), { timeout: 10_000 });
    h.sim.restoreWebSocket();

    const outcome = await call.done;
    const row = await finishedRow(h, call.channelId);
    expect(row.status).toBe('voicemail');
    expect(outcome.heard.slice(1)).toEqual(['sound:beep', await h.prompt(THANK_YOU, 'female')]);
    expect((await pbxHealth(h)).ok).toBe(true);
    await vi.waitFor(() => expect(h!.finished.filter((id) => id === row.id)).toHaveLength(1));
    expect(h.protocolProblems()).toEqual([]);
  });

  it('a caller who leaves a message and hangs up while the socket is down still gets a voicemail row with the recording', async () => {
    h = await startHarness({ timeScale: 10 });
    const biz = await h.business({ businessName: 'Blackout Ltd' });
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { hangup: true }] } });
    await vi.waitFor(() => expect(sawEvent(h!.sim, call.channelId, 'RecordingStarted')).toBe(true), { timeout: 10_000 });
    h.sim.dropWebSocket();
    await call.done; // RecordingFinished, StasisEnd and ChannelDestroyed are all lost
    h.sim.restoreWebSocket();

    const row = await finishedRow(h, call.channelId);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(row.duration).toBeGreaterThan(0);
    // Asterisk's copy is deleted just after the row is final.
    await vi.waitFor(() => expect(h!.sim.storedRecordingNames()).not.toContain(`call-${row.id}`));
    await vi.waitFor(() => expect(h!.finished).toEqual([row.id]));
  });

  it('an event type missing from events.json (a newer Asterisk) changes nothing on the socket, and calls go on', async () => {
    h = await startHarness({ timeScale: 20 });
    h.sim.sendUnknownEvent(APP);
    h.sim.sendUnknownEvent(APP, 'ChannelSomethingNew');
    const biz = await h.business({});
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech('Just checking you got this.') }, { press: '#' }] } });
    await call.done;
    expect((await finishedRow(h, call.channelId)).status).toBe('voicemail');
    expect(h.pbx.link.state).toBe('connected');
    // The same socket throughout: no reconnect was needed.
    expect(h.sim.restLog.filter((r) => r.path === `/ari/applications/${APP}`)).toHaveLength(1);
  });

  it('REST calls that Asterisk never answers time out, and the call row is still written', async () => {
    h = await startHarness({ timeScale: 20, pbx: { requestTimeoutMs: 400 } });
    const biz = await h.business({ businessName: 'Hung Asterisk Ltd' });
    h.sim.setRestBlackhole(true);
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did });
    const row = await finishedRow(h, call.channelId);
    expect(row).toMatchObject({ status: 'missed', recordingFile: null });
    h.sim.setRestBlackhole(false);
    h.sim.hangupCaller(call.channelId);
    await vi.waitFor(() => expect(h!.finished).toEqual([row.id]));
  });

  it('a call arriving while a reconcile snapshot is in flight is not mistaken for a call that ended', async () => {
    h = await startHarness({ timeScale: 10 });
    const biz = await h.business({});
    h.sim.delayOperation('applications.get', 800);
    h.sim.dropWebSocket();
    h.sim.restoreWebSocket();
    await vi.waitFor(() => expect(h!.sim.appConnected(APP)).toBe(true));
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { press: '#' }] } });
    const outcome = await call.done;
    expect(outcome.heard).toContain('sound:beep');
    expect((await finishedRow(h, call.channelId)).status).toBe('voicemail');
  });

  it('a call already in the app when the core starts is taken over and finished exactly once', async () => {
    let channelId = '';
    let done: Promise<unknown> = Promise.resolve();
    const say = callerSpeech(MESSAGE);
    h = await startHarness({
      timeScale: 10,
      // An earlier core process held the app, took the call, and died before answering it.
      beforePbx: async (sim, services) => {
        const { username, password } = sim.credentials;
        const old = new WebSocket(`${sim.url.replace('http', 'ws')}/ari/events?app=${APP}&api_key=${username}:${password}`);
        await new Promise((r) => old.once('open', r));
        const did = '+447700900321';
        const { tablesOf } = await import('../../core/db/schema.js');
        const { users, phoneNumbers } = tablesOf(services.database.db);
        const user = (await services.database.db.insert(users).values({ email: 'early@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Early Bird' }).returning())[0]!;
        await services.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id });
        const call = sim.call({ app: APP, from: CALLER, did, script: { onRecord: [{ say }, { press: '#' }] } });
        channelId = call.channelId;
        done = call.done;
        old.terminate();
      },
    });
    // Two more reconciles racing the takeover must not start a second session or row.
    await Promise.all([h.pbx.app.reconcile(), h.pbx.app.reconcile()]);
    await done;
    const row = await finishedRow(h, channelId);
    expect(row.status).toBe('voicemail');
    await vi.waitFor(() => expect(h!.finished).toEqual([row.id]));
    expect(h.sim.restLog.filter((r) => r.path === `/ari/channels/${channelId}/record`)).toHaveLength(1);
  });

  it(
    'a long outage (more refused attempts than the ten after which ari-client gave up for good): the link keeps trying, says why, and answers calls again',
    async () => {
      h = await startHarness({ timeScale: 20 });
      h.sim.dropWebSocket();
      // The harness's back-off: 0.1 s doubling to 1 s, so eleven attempts take about 9 s.
      await vi.waitFor(() => expect(h!.sim.refusedUpgrades).toBeGreaterThan(10), { timeout: 60_000, interval: 250 });
      expect((await pbxHealth(h)).ok).toBe(false);
      expect(h.pbx.link.state).toBe('reconnecting');
      expect(h.pbx.link.detail).toMatch(/answered HTTP 503 to the events WebSocket/);
      h.sim.restoreWebSocket();
      await vi.waitFor(() => expect(h!.pbx.link.state).toBe('connected'), { timeout: 10_000 });
      expect(h.pbx.link.reconnects).toBe(1);
      const biz = await h.business({});
      const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { press: '#' }] } });
      await call.done;
      expect((await finishedRow(h, call.channelId)).status).toBe('voicemail');
    },
    120_000,
  );
});
