// The ARI simulator kept honest: the same scripted calls run on the simulator and on the
// real Asterisk 20.17.0, each through a logging proxy, and per call the ordered ARI requests
// the core makes and the event types it receives (ids normalised) must be the same.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pbx } from '../../pbx/index.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import type { CallerScript } from '../ari-sim/caller-script.js';
import { AriSimulator } from '../ari-sim/simulator.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { startAriTap, type AriTap, type TapEntry } from './ari-tap.js';
import { speech } from './audio.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { phoneNumbers, users } from '../helpers/tables.js';

const real = realPbxAvailability();
const APP = 'call-answering';
const MESSAGE = 'Hello, it is Jo from the flats on King Street, the boiler has no pressure again, please call me back.';

/** One call's story as the core saw it: its requests and the events about its channel, in order. */
function story(log: TapEntry[], channel: string): string[] {
  // In the order the proxy saw them: a request when it was sent, an event when it arrived.
  const lines = log
    .filter((e) => e.channel === channel)
    .sort((a, b) => a.at - b.at)
    .map((e) => (e.kind === 'request' ? `→ ${e.what} ${e.status}` : `← ${e.what}`));
  return withRecordBeforeBeepStart(lines);
}

/**
 * The voicemail flow asks for the recording as soon as Asterisk has accepted the beep (the
 * record request queues behind it on the channel), so whether the beep's PlaybackStarted, sent
 * over the event socket, reaches the proxy before or after that request is a race between two
 * connections, not a difference between simulator and Asterisk: the story puts the request first.
 */
function withRecordBeforeBeepStart(lines: string[]): string[] {
  const out = [...lines];
  for (let i = 1; i + 1 < out.length; i++) {
    if (out[i - 1]!.startsWith('→ POST /channels/{id}/play ') && out[i] === '← PlaybackStarted' && out[i + 1]!.startsWith('→ POST /channels/{id}/record ')) {
      [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
    }
  }
  return out;
}

const firstChannelAfter = (log: TapEntry[], from: number) => log.slice(from).find((e) => e.kind === 'event' && e.what === 'StasisStart')?.channel;

describe.skipIf(!real.ok)('the ARI simulator and Asterisk 20.17.0 tell the same story per call', { timeout: 240_000 }, () => {
  let realTap: AriTap;
  let h: RealPbx;
  let sim: AriSimulator;
  let simTap: AriTap;
  let simServer: TestServer;
  let simPbx: Pbx;

  beforeAll(async () => {
    h = await startRealPbx({ ariVia: async (url) => (realTap = await startAriTap(url)).url });
    sim = new AriSimulator({ timeScale: 1 });
    await sim.start();
    simTap = await startAriTap(sim.url);
    simServer = await startTestServer({
      env: { ARI_URL: simTap.url, ARI_USERNAME: sim.credentials.username, ARI_PASSWORD: sim.credentials.password, ARI_APP: APP, TTS_ENGINE: 'espeak-ng' },
      setup: (services) => sim.mountSounds('appliance', path.join(services.config.dataDir, 'prompts')),
      pbx: { backoff: { baseMs: 100, maxMs: 1000 } },
    });
    simPbx = simServer.appliance.pbx!;
    await waitUntil(() => (sim.appConnected(APP) && simPbx.link.state === 'connected') || Promise.reject(new Error('not connected')), 15_000);
  });
  afterAll(async () => {
    await simServer?.close();
    await sim?.stop();
    await simTap?.close();
    await h?.close();
    await realTap?.close();
  });

  async function simBusiness(did: string, fields: Record<string, unknown>) {
    const db = simServer.database.db;
    const user = (await db.insert(users).values({ email: `${did}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', ...fields }).returning())[0]!;
    await db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id, assignedAt: new Date() });
  }

  async function onSimulator(did: string, script: CallerScript): Promise<string[]> {
    const from = simTap.log.length;
    const placed = sim.call({ app: APP, from: '+447700900555', did, script });
    await placed.done;
    return waitStory(simTap, from, placed.channelId);
  }

  /** The story once the channel has left and the core has finished with it (the recording deleted or none). */
  async function waitStory(tap: AriTap, from: number, channel: string): Promise<string[]> {
    // StasisEnd is the last event an app gets about a channel (ChannelDestroyed goes to subscribers only).
    await waitUntil(() => tap.log.slice(from).some((e) => e.channel === channel && e.what === 'StasisEnd') || Promise.reject(new Error('call not over')), 60_000);
    // Requests after the channel left (fetching and deleting the recording) carry no channel: settle first.
    await waitUntil(() => (Date.now() - lastAt(tap) > 1500 ? true : Promise.reject(new Error('still busy'))), 20_000, 100);
    return story(tap.log.slice(from), channel);
  }

  const lastSeen = new WeakMap<AriTap, { n: number; at: number }>();
  function lastAt(tap: AriTap): number {
    const seen = lastSeen.get(tap);
    if (!seen || seen.n !== tap.log.length) lastSeen.set(tap, { n: tap.log.length, at: Date.now() });
    return lastSeen.get(tap)!.at;
  }

  it('a spoken message ended by the silence limit', async () => {
    const realBiz = await h.business({ businessName: 'King Street Lettings' });
    const from = realTap.log.length;
    const call = await h.call(realBiz.did);
    await heardGreetingAndBeep(call);
    await call.media.say(speech(MESSAGE));
    await call.done;
    const channel = await waitUntil(() => firstChannelAfter(realTap.log, from) ?? Promise.reject(new Error('no call')), 5000);
    const onAsterisk = await waitStory(realTap, from, channel);

    await simBusiness('+447700900771', { businessName: 'King Street Lettings' });
    const onSim = await onSimulator('+447700900771', { onRecord: [{ say: callerSpeech(MESSAGE) }] });
    expect(onSim).toEqual(onAsterisk);
  });

  it('a caller hanging up during the greeting', async () => {
    const realBiz = await h.business({ businessName: 'King Street Lettings' });
    const from = realTap.log.length;
    const call = await h.call(realBiz.did);
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(600), 30_000);
    await call.hangUp();
    await call.done;
    const channel = await waitUntil(() => firstChannelAfter(realTap.log, from) ?? Promise.reject(new Error('no call')), 5000);
    const onAsterisk = await waitStory(realTap, from, channel);

    await simBusiness('+447700900772', { businessName: 'King Street Lettings' });
    const onSim = await onSimulator('+447700900772', { hangupAfterMs: 2500 });
    expect(onSim).toEqual(onAsterisk);
  });

  it('a call to a number nobody has', async () => {
    const from = realTap.log.length;
    const call = await h.call('+447700900998');
    await call.done;
    const channel = await waitUntil(() => firstChannelAfter(realTap.log, from) ?? Promise.reject(new Error('no call')), 5000);
    const onAsterisk = await waitStory(realTap, from, channel);
    const onSim = await onSimulator('+447700900998', {});
    expect(onSim).toEqual(onAsterisk);
  });

  it('records what it compared, for whoever changes the simulator next', () => {
    fs.mkdirSync('test-results', { recursive: true });
    expect(realTap.log.length).toBeGreaterThan(0);
  });
});
