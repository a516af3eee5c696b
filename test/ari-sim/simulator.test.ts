import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { callerSpeech } from './caller-audio.js';
import { eventShapeProblems } from './event-shapes.js';
import { AriSimulator } from './simulator.js';
import { createAriHttp } from '../../pbx/ari/http.js';
import { createAriRest } from '../../pbx/ari/rest-client.js';
import type { RecordOptions } from '../../pbx/ari/types.js';
import { encodeWav, parseWav, rms, silencePcm } from './wav.js';

const APP = 'call-answering';
let sim: AriSimulator;
let promptsDir: string;

function auth() {
  const { username, password } = sim.credentials;
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

async function rest(method: string, p: string, body?: unknown) {
  const res = await fetch(sim.url + p, {
    method,
    headers: { ...auth(), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** A bare events socket, like any ARI client's. */
async function listen(app = APP) {
  const { username, password } = sim.credentials;
  const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/ari/events?app=${app}&api_key=${username}:${password}`, 'ari');
  const events: Array<Record<string, any>> = [];
  ws.on('message', (m) => events.push(JSON.parse(String(m))));
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  return { ws, events, types: () => events.map((e) => e.type as string) };
}

beforeEach(async () => {
  promptsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-prompts-'));
  sim = new AriSimulator({ soundDirs: { appliance: promptsDir }, timeScale: 20 });
  await sim.start();
});

afterEach(async () => {
  await sim.stop();
  fs.rmSync(promptsDir, { recursive: true, force: true });
});

describe('ARI simulator: serving the API like res_ari', () => {
  it('serves the real Swagger files with basePath rewritten to the Host the client used', async () => {
    const listing = await rest('GET', '/ari/api-docs/resources.json');
    expect(listing.status).toBe(200);
    expect(listing.json.basePath).toBe(`${sim.url}/ari`);
    const channels = await rest('GET', '/ari/api-docs/channels.json');
    expect(channels.json.basePath).toBe(`${sim.url}/ari`);
    expect(channels.json.apis.some((a: any) => a.path === '/channels/{channelId}/record')).toBe(true);
  });

  it('answers 401 with a Basic challenge when credentials are missing or wrong', async () => {
    const none = await fetch(`${sim.url}/ari/channels`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Asterisk REST Interface"');
    const wrong = await fetch(`${sim.url}/ari/channels?api_key=appliance:nope`);
    expect(wrong.status).toBe(401);
    const key = await fetch(`${sim.url}/ari/channels?api_key=appliance:secret`);
    expect(key.status).toBe(200);
  });

  it('refuses malformed calls with Asterisk-style errors and records each violation', async () => {
    const unknownPath = await rest('POST', '/ari/channels/1/jump');
    const unknownParam = await rest('POST', '/ari/channels/1/play?media=sound:beep&volume=11');
    const missing = await rest('POST', '/ari/channels/1/record?format=wav');
    const badValue = await rest('POST', '/ari/channels/1/record?name=x&format=wav&terminateOn=%23%23');
    const badInt = await rest('POST', '/ari/channels/1/record?name=x&format=wav&maxSilenceSeconds=five');
    const badMethod = await rest('PUT', '/ari/channels/1/answer');
    expect([unknownPath.status, unknownParam.status, missing.status, badValue.status, badInt.status, badMethod.status]).toEqual([
      404, 400, 400, 400, 400, 405,
    ]);
    expect(missing.json.message).toBe('Missing required field: name');
    expect(sim.violations).toHaveLength(6);
    // A well-formed call on a missing channel is not a violation: it is a 404 from the resource.
    const noChannel = await rest('POST', '/ari/channels/1/answer');
    expect(noChannel.status).toBe(404);
    expect(sim.violations).toHaveLength(6);
  });

  it("refuses a call the core's own REST client builds with a value outside allowableValues", async () => {
    const http = createAriHttp({ url: sim.url, ...sim.credentials });
    const options = { name: 'n', format: 'wav', maxDurationSeconds: 10, maxSilenceSeconds: 2, ifExists: 'sometimes', beep: false, terminateOn: 'none' };
    await expect(createAriRest(http).record('x', options as unknown as RecordOptions)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/ifExists/) });
    http.close();
    expect(sim.violations.map((v) => [v.path, v.status])).toEqual([['/ari/channels/x/record', 400]]);
  });

  it('does not let a call enter Stasis while no WebSocket holds the app', () => {
    expect(() => sim.call({ app: APP, from: '+447700900999', did: '+447700900001' })).toThrow(/not registered/);
  });
});

describe('ARI simulator: a call as Asterisk would run it', () => {
  it('emits every event in the shape events.json declares, with Asterisk timestamps', async () => {
    const l = await listen();
    const say = callerSpeech('Hello, it is Sam about the boiler.');
    const call = sim.call({ app: APP, from: '+447700900999', did: '+447700900001', script: { onRecord: [{ say }, { press: '#' }] } });
    await vi.waitFor(() => expect(l.types()).toContain('StasisStart'));
    const start = l.events[0]!;
    expect(start.args).toEqual(['+447700900001']);
    expect(start.channel.state).toBe('Ring');
    expect(start.application).toBe(APP);
    await rest('POST', `/ari/channels/${call.channelId}/answer`);
    await rest('POST', `/ari/channels/${call.channelId}/variable?variable=TALK_DETECT(set)&value=1500`);
    await rest('POST', `/ari/channels/${call.channelId}/record?name=r1&format=wav&maxSilenceSeconds=3&terminateOn=%23`);
    await vi.waitFor(() => expect(l.types()).toContain('RecordingFinished'));
    await rest('DELETE', `/ari/channels/${call.channelId}?reason=normal`);
    await call.done;
    await vi.waitFor(() => expect(l.types()).toContain('StasisEnd'));
    expect(l.types()).toEqual([
      'StasisStart',
      'ChannelStateChange',
      'RecordingStarted',
      'ChannelTalkingStarted',
      'ChannelTalkingFinished',
      'ChannelDtmfReceived',
      'RecordingFinished',
      'ChannelHangupRequest',
      'StasisEnd',
    ]);
    for (const e of l.events) expect(eventShapeProblems(sim.spec, e)).toEqual([]);
    l.ws.close();
  });

  it('plays a prompt for as long as its WAV lasts and fails a missing sound after a 201', async () => {
    const l = await listen();
    fs.writeFileSync(path.join(promptsDir, 'greeting.wav'), encodeWav(silencePcm(4000)));
    const call = sim.call({ app: APP, from: '+447700900999', did: '+447700900001' });
    const ok = await rest('POST', `/ari/channels/${call.channelId}/play?media=sound:appliance/greeting&playbackId=p1`);
    const missing = await rest('POST', `/ari/channels/${call.channelId}/play?media=sound:appliance/nope&playbackId=p2`);
    expect([ok.status, ok.json.state, missing.status]).toEqual([201, 'queued', 201]);
    await vi.waitFor(() => expect(l.events.filter((e) => e.type === 'PlaybackFinished')).toHaveLength(2));
    const finished = l.events.filter((e) => e.type === 'PlaybackFinished');
    expect(finished.map((e) => [e.playback.id, e.playback.state])).toEqual([
      ['p1', 'done'],
      ['p2', 'failed'],
    ]);
    const started = l.events.find((e) => e.type === 'PlaybackStarted' && e.playback.id === 'p1')!;
    const simulatedMs = Date.parse(finished[0]!.timestamp.replace('+0000', 'Z')) - Date.parse(started.timestamp.replace('+0000', 'Z'));
    expect(simulatedMs).toBeGreaterThanOrEqual(3900);
    expect(simulatedMs).toBeLessThan(6000);
    l.ws.close();
  });

  it('writes the caller’s words into the recording and serves them from /recordings/stored/{name}/file', async () => {
    const l = await listen();
    const say = callerSpeech('Please call me back about the quote.');
    const call = sim.call({ app: APP, from: '+447700900999', did: '+447700900001', script: { onRecord: [{ say }] } });
    await rest('POST', `/ari/channels/${call.channelId}/answer`);
    await rest('POST', `/ari/channels/${call.channelId}/record?name=msg&format=wav&maxSilenceSeconds=2`);
    await vi.waitFor(() => expect(l.types()).toContain('RecordingFinished'));
    const rec = l.events.find((e) => e.type === 'RecordingFinished')!.recording;
    expect(rec.state).toBe('done');
    expect(rec.talking_duration).toBeGreaterThanOrEqual(1);
    const file = await fetch(`${sim.url}/ari/recordings/stored/msg/file`, { headers: auth() });
    expect(file.headers.get('content-type')).toBe('audio/wav');
    const wav = parseWav(Buffer.from(await file.arrayBuffer()));
    const spoken = parseWav(fs.readFileSync(say));
    expect([wav.sampleRate, wav.channels, wav.bitsPerSample]).toEqual([8000, 1, 16]);
    expect(wav.data.subarray(0, spoken.data.length).equals(spoken.data)).toBe(true);
    expect(rms(wav.data)).toBeGreaterThan(100);
    expect((await rest('DELETE', '/ari/recordings/stored/msg')).status).toBe(204);
    expect(sim.storedRecordingNames()).toEqual([]);
    l.ws.close();
  });

  it('loses events while the socket is down but keeps the channel in the app for a reconnect to find', async () => {
    const l = await listen();
    const call = sim.call({ app: APP, from: '+447700900999', did: '+447700900001' });
    await vi.waitFor(() => expect(l.types()).toContain('StasisStart'));
    sim.dropWebSocket();
    await vi.waitFor(() => expect(l.ws.readyState).toBe(WebSocket.CLOSED));
    await expect(listen()).rejects.toThrow(/503/);
    await rest('POST', `/ari/channels/${call.channelId}/answer`);
    sim.restoreWebSocket();
    const again = await listen();
    const app = await rest('GET', `/ari/applications/${APP}`);
    expect(app.json.channel_ids).toEqual([call.channelId]);
    expect(again.types()).not.toContain('ChannelStateChange');
    again.ws.close();
  });
});
