// Issue 42 item 4: the owner's own recording of the greeting line per caller language. A WAV
// is checked and converted to the prompts' telephone format before anything is stored; every
// refusal is a 400 the console can show, with nothing stored changed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingSoundKey } from '../../models/audio/greeting-recording.js';
import { buildWavHeader, parseWavHeader } from '../../models/audio/wav-header.js';
import { recordedPrompt } from '../../models/tts/recorded-prompt.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A WAV of a 440 Hz tone (or silence) in the given format. */
function wav(opts: { rate?: number; channels?: number; seconds?: number; amplitude?: number; bits?: number } = {}): Buffer {
  const { rate = 16000, channels = 1, seconds = 1, amplitude = 8000, bits = 16 } = opts;
  const frames = Math.round(rate * seconds);
  const data = Buffer.alloc(frames * channels * (bits / 8));
  if (bits === 16) for (let i = 0; i < frames; i++) for (let c = 0; c < channels; c++) data.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / rate)), (i * channels + c) * 2);
  return Buffer.concat([buildWavHeader({ sampleRate: rate, channels, bitsPerSample: bits, dataBytes: data.length }), data]);
}

/** `body` with the 16-bit header field at `at` (22 channels, 32 block size) set to `value`. */
function header(body: Buffer, at: number, value: number): Buffer {
  const copy = Buffer.from(body);
  copy.writeUInt16LE(value, at);
  return copy;
}

const put = (client: ApiClient, language: string, body: Buffer | string, type = 'audio/wav') =>
  fetch(`${server.url}/api/agent/greeting-recordings/${language}`, { method: 'PUT', headers: { 'content-type': type, cookie: client.cookie! }, body });
const getAudio = (client: ApiClient, language: string) => fetch(`${server.url}/api/agent/greeting-recordings/${language}`, { headers: { cookie: client.cookie! } });
const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message;
const me = async (client: ApiClient) => (await client.get('/api/auth/me')).body.user;
const ownerDir = (id: number) => path.join(server.dataDir, 'greeting-recordings', String(id));
const storedFiles = (id: number) => (fs.existsSync(ownerDir(id)) ? fs.readdirSync(ownerDir(id)).sort() : []);

// Each upload is converted in a thread below normal priority: on a loaded machine it waits its turn.
describe('PUT/GET/DELETE /api/agent/greeting-recordings/:language', { timeout: 180_000 }, () => {
  it('stores a stereo 44.1 kHz recording as 8 kHz mono, plays it back, names it by content, and DELETE returns to the spoken line', async () => {
    const { client, user } = await activeCustomer(server);
    expect((await client.patch('/api/user/settings', { agentLanguages: ['en', 'cy'], greetingLanguages: ['en', 'cy'] })).status).toBe(200);
    expect((await me(client)).greetingRecordings).toEqual([]);

    const res = await put(client, 'cy', wav({ rate: 44100, channels: 2, seconds: 2 }));
    expect(res.status).toBe(200);
    expect(await res.json() as unknown).toEqual({ greetingRecordings: ['cy'] });
    expect((await me(client)).greetingRecordings).toEqual(['cy']);

    const back = await getAudio(client, 'cy');
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('audio/wav');
    const info = parseWavHeader(Buffer.from(await back.arrayBuffer()));
    expect({ rate: info.sampleRate, channels: info.channels, bits: info.bitsPerSample, ms: info.durationMs }).toEqual({ rate: 8000, channels: 1, bits: 16, ms: 2000 });
    const first = storedFiles(user.id);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^cy-[0-9a-f]{20}\.wav$/);

    // A new recording gets a new name (never an old cache's), and the old file goes.
    expect((await put(client, 'cy', wav({ rate: 8000, seconds: 3 }))).status).toBe(200);
    const second = storedFiles(user.id);
    expect(second).toHaveLength(1);
    expect(second[0]).not.toBe(first[0]);

    const del = await client.delete('/api/agent/greeting-recordings/cy');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ greetingRecordings: [] });
    expect(storedFiles(user.id)).toEqual([]);
    expect((await me(client)).greetingRecordings).toEqual([]);
    const gone = await getAudio(client, 'cy');
    expect(gone.status).toBe(404);
    expect((await messageOf(gone))).toBe('There is no recorded Welsh greeting: callers hear the spoken line.');
  });

  it('refuses a language the owner has not ticked, naming it, and one the agent does not speak', async () => {
    const { client } = await activeCustomer(server);
    expect((await client.patch('/api/user/settings', { agentLanguages: ['en', 'pl'] })).status).toBe(200);
    const off = await put(client, 'cy', wav());
    expect(off.status).toBe(400);
    expect((await messageOf(off))).toBe('Tick Welsh under Caller Languages before recording a greeting in it.');
    const unknown = await put(client, 'fr', wav());
    expect(unknown.status).toBe(400);
    expect((await messageOf(unknown))).toBe('The agent does not speak "fr", so it has no greeting line in it.');
  });

  it('refuses a non-WAV, 8-bit, silent, too long or too big body with words for the owner, leaving the stored recording as it was', async () => {
    const { client, user } = await activeCustomer(server);
    expect((await client.patch('/api/user/settings', { agentLanguages: ['en', 'pl'] })).status).toBe(200);
    expect((await put(client, 'pl', wav())).status).toBe(200);
    const kept = storedFiles(user.id);
    const keptAudio = Buffer.from(await (await getAudio(client, 'pl')).arrayBuffer());

    const refusals: Array<[Buffer | string, string, string?]> = [
      [Buffer.from('ID3\x04 this is an mp3'), 'That file is not a WAV recording: save it as WAV (16-bit PCM) and upload it again, or record again.'],
      ['{"greeting": "hello"}', 'Send the recording as a WAV file (Content-Type: audio/wav).', 'application/json'],
      [wav({ bits: 8 }), 'The recording must be 16-bit PCM WAV (not compressed or 8/24/32-bit). Save it as 16-bit PCM and upload it again.'],
      [wav({ rate: 96000, seconds: 0.1 }), "The recording's sample rate must be between 8,000 and 48,000 Hz (this one is 96000 Hz)."],
      [wav({ amplitude: 0 }), 'The recording is silent. Check the microphone is on and allowed in the browser, then record again.'],
      [wav({ rate: 8000, seconds: 31 }), 'The recording is 31 seconds long; a greeting line may be at most 30 seconds.'],
      [wav({ rate: 48000, channels: 2, seconds: 40 }), 'The recording is larger than 6 MB. A greeting line may be at most 30 seconds.'],
      // Malformed headers (issue 53 item 5): a block size at odds with the channels was a 500.
      [header(wav({ channels: 2 }), 32, 1), "The recording's header does not add up: it says 2 channels of 16 bits (4 bytes a frame) but a block size of 1 byte. Save it again as 16-bit PCM WAV and upload it again."],
      [header(wav(), 22, 0), 'That WAV recording is damaged or cut short: save it again as WAV (16-bit PCM) and upload it again, or record again.'],
      [wav().subarray(0, 30), 'That WAV recording is damaged or cut short: save it again as WAV (16-bit PCM) and upload it again, or record again.'],
    ];
    for (const [body, message, type] of refusals) {
      const res = await put(client, 'pl', body, type);
      expect(res.status, message).toBe(400);
      expect((await messageOf(res))).toBe(message);
    }
    expect(storedFiles(user.id)).toEqual(kept);
    expect(Buffer.from(await (await getAudio(client, 'pl')).arrayBuffer()).equals(keptAudio)).toBe(true);
    expect((await me(client)).greetingRecordings).toEqual(['pl']);
  });

  it('goes with the owner when an administrator deletes the account', async () => {
    const { client, user } = await activeCustomer(server);
    expect((await put(client, 'en', wav())).status).toBe(200);
    expect(storedFiles(user.id)).toHaveLength(1);
    const admin = await signInAdmin(server);
    expect((await admin.delete(`/api/admin/users/${user.id}`)).status).toBe(200);
    expect(fs.existsSync(ownerDir(user.id))).toBe(false);
  });

  it('takes a WAV only on its own routes: another JSON route still refuses audio/wav', async () => {
    const { client } = await activeCustomer(server);
    const res = await fetch(`${server.url}/api/user/settings`, { method: 'PATCH', headers: { 'content-type': 'audio/wav', cookie: client.cookie! }, body: wav() });
    expect(res.status).toBe(415);
  });

  it('is for signed-in owners only', async () => {
    const res = await fetch(`${server.url}/api/agent/greeting-recordings/en`, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: wav() });
    expect(res.status).toBe(401);
  });
});

// Issue 53 item 5: uploads are limited per owner and per box (each is up to 6 MB to receive and
// convert on the CPU the calls share); a refusal is a 429 in words and leaves what is stored.
describe('greeting uploads are rate-limited per owner and per box', { timeout: 180_000 }, () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ rateLimits: { greetingUploadsPerOwner: { max: 2, windowMs: 60 * 60_000 }, greetingUploadsPerBox: { max: 3, windowMs: 60 * 60_000 } } });
  });
  afterAll(() => limited?.close());
  const upload = (client: ApiClient) =>
    fetch(`${limited.url}/api/agent/greeting-recordings/en`, { method: 'PUT', headers: { 'content-type': 'audio/wav', cookie: client.cookie! }, body: wav() });

  it('the third upload in an hour from one owner, and the fourth on the box from anyone, is refused with what to do', async () => {
    const first = await activeCustomer(limited);
    expect((await upload(first.client)).status).toBe(200);
    // A refused recording counts too: converting it was the cost.
    const refused = await fetch(`${limited.url}/api/agent/greeting-recordings/en`, { method: 'PUT', headers: { 'content-type': 'audio/wav', cookie: first.client.cookie! }, body: wav({ amplitude: 0 }) });
    expect(refused.status).toBe(400);
    const third = await upload(first.client);
    expect(third.status).toBe(429);
    expect(await messageOf(third)).toBe('You have uploaded greeting recordings too often. Nothing was saved: please wait 60 minutes and upload again.');

    const second = await activeCustomer(limited);
    expect((await upload(second.client)).status).toBe(200);
    const boxFull = await upload(second.client);
    expect(boxFull.status).toBe(429);
    expect(await messageOf(boxFull)).toBe('Too many greeting recordings are being uploaded on this system right now. Nothing was saved: please wait 60 minutes and upload again.');

    // Both owners keep the recording they saved.
    for (const { client } of [first, second]) {
      expect((await (await fetch(`${limited.url}/api/auth/me`, { headers: { cookie: client.cookie! } })).json() as { user: { greetingRecordings: string[] } }).user.greetingRecordings).toEqual(['en']);
      expect((await fetch(`${limited.url}/api/agent/greeting-recordings/en`, { headers: { cookie: client.cookie! } })).status).toBe(200);
    }
  });
});

// Issue 57 item 7: a voicemail owner's own recording of their greeting, one per owner, under the
// same checks, conversion and storage as the agent's lines (users.greeting_recordings 'voicemail').
describe('PUT/GET/DELETE /api/voicemail/greeting-recording', { timeout: 180_000 }, () => {
  const url = `/api/voicemail/greeting-recording`;
  const putVoicemail = (client: ApiClient, body: Buffer | string, type = 'audio/wav') =>
    fetch(`${server.url}${url}`, { method: 'PUT', headers: { 'content-type': type, cookie: client.cookie! }, body });
  const getVoicemail = (client: ApiClient) => fetch(`${server.url}${url}`, { headers: { cookie: client.cookie! } });
  const promptsDir = () => path.join(server.dataDir, 'prompts');

  it('stores the recording as 8 kHz mono beside the agent’s lines, plays it back, replaces it with a new name (its old sound gone), and DELETE returns to the spoken greeting', async () => {
    const { client, user } = await activeCustomer(server);
    expect((await me(client)).voicemailGreetingRecording).toBe(false);
    expect((await put(client, 'en', wav())).status).toBe(200);

    const res = await putVoicemail(client, wav({ rate: 44100, channels: 2, seconds: 2 }));
    expect(res.status).toBe(200);
    expect(await res.json() as unknown).toEqual({ voicemailGreetingRecording: true });
    expect(await me(client)).toMatchObject({ voicemailGreetingRecording: true, greetingRecordings: ['en'] });
    const back = await getVoicemail(client);
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('audio/wav');
    const info = parseWavHeader(Buffer.from(await back.arrayBuffer()));
    expect({ rate: info.sampleRate, channels: info.channels, bits: info.bitsPerSample, ms: info.durationMs }).toEqual({ rate: 8000, channels: 1, bits: 16, ms: 2000 });
    const first = storedFiles(user.id).filter((f) => f.startsWith('voicemail-'));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^voicemail-[0-9a-f]{20}\.wav$/);

    // A call made the sound Asterisk plays; a replaced recording takes its sound with it.
    const sound = recordingSoundKey(user.id, first[0]!);
    await recordedPrompt(server.dataDir, path.join(ownerDir(user.id), first[0]!), sound);
    expect(fs.readdirSync(promptsDir()).filter((f) => f.startsWith(`${sound}.`)).sort()).toEqual([`${sound}.alaw`, `${sound}.ulaw`, `${sound}.wav`]);
    expect((await putVoicemail(client, wav({ rate: 8000, seconds: 3 }))).status).toBe(200);
    const second = storedFiles(user.id).filter((f) => f.startsWith('voicemail-'));
    expect(second).toHaveLength(1);
    expect(second[0]).not.toBe(first[0]);
    expect(fs.readdirSync(promptsDir()).filter((f) => f.startsWith(`${sound}.`))).toEqual([]);

    const del = await client.delete(url);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ voicemailGreetingRecording: false });
    expect(storedFiles(user.id).filter((f) => f.startsWith('voicemail-'))).toEqual([]);
    expect(await me(client)).toMatchObject({ voicemailGreetingRecording: false, greetingRecordings: ['en'] });
    const gone = await getVoicemail(client);
    expect(gone.status).toBe(404);
    expect(await messageOf(gone)).toBe('There is no recorded voicemail greeting: callers hear the spoken greeting.');
  });

  it('refuses a bad WAV with words for the owner, leaving the stored recording as it was', async () => {
    const { client, user } = await activeCustomer(server);
    expect((await putVoicemail(client, wav())).status).toBe(200);
    const kept = storedFiles(user.id);
    const refusals: Array<[Buffer | string, string, string?]> = [
      [Buffer.from('ID3\x04 this is an mp3'), 'That file is not a WAV recording: save it as WAV (16-bit PCM) and upload it again, or record again.'],
      ['{"greeting": "hello"}', 'Send the recording as a WAV file (Content-Type: audio/wav).', 'application/json'],
      [wav({ amplitude: 0 }), 'The recording is silent. Check the microphone is on and allowed in the browser, then record again.'],
      [wav({ rate: 8000, seconds: 31 }), 'The recording is 31 seconds long; a greeting line may be at most 30 seconds.'],
    ];
    for (const [body, message, type] of refusals) {
      const res = await putVoicemail(client, body, type);
      expect(res.status, message).toBe(400);
      expect(await messageOf(res)).toBe(message);
    }
    expect(storedFiles(user.id)).toEqual(kept);
    expect((await me(client)).voicemailGreetingRecording).toBe(true);
  });

  it('is for signed-in owners only', async () => {
    for (const method of ['PUT', 'GET', 'DELETE']) {
      const res = await fetch(`${server.url}${url}`, { method, ...(method === 'PUT' ? { headers: { 'content-type': 'audio/wav' }, body: wav() } : {}) });
      expect(res.status, method).toBe(401);
    }
  });
});
