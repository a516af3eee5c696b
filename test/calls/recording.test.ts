import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWavHeader } from '../../models/audio/wav-header.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { type ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls } from './seed.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
let stranger: Awaited<ReturnType<typeof activeCustomer>>;
// One second of 8 kHz audio whose bytes count up, so every slice is recognisable.
const audio = Buffer.alloc(16000).map((_, i) => i % 251);
const wav = Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: audio.length }), audio]);
let withRecording: number;
let withoutRecording: number;
let missingFile: number;
let traversal: number;

/** GET with the client's session cookie, reading the body as bytes (ApiClient reads text). */
async function fetchBytes(client: ApiClient | null, urlPath: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + urlPath, { headers: { ...(client?.cookie ? { cookie: client.cookie } : {}), ...headers } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server, { businessName: 'Owner Ltd' });
  stranger = await activeCustomer(server, { businessName: 'Stranger Ltd' });

  fs.mkdirSync(path.join(server.dataDir, 'recordings'), { recursive: true });
  fs.writeFileSync(path.join(server.dataDir, 'recordings', 'owner-call.wav'), wav);
  // A file outside recordings/ that a crafted recordingFile must never reach.
  fs.writeFileSync(path.join(server.dataDir, 'secret.wav'), 'not yours');

  [withRecording, withoutRecording, missingFile, traversal] = (await insertCalls(server, [
    { userId: owner.user.id, status: 'voicemail', recordingFile: 'owner-call.wav' },
    { userId: owner.user.id, status: 'missed' },
    { userId: owner.user.id, status: 'voicemail', recordingFile: 'gone.wav' },
    { userId: owner.user.id, status: 'voicemail', recordingFile: '../secret.wav' },
  ])).map((c) => c.id) as [number, number, number, number];
});
afterAll(() => server.close());

const url = (id: number | string) => `/api/call-logs/${id}/recording`;

describe('GET /api/call-logs/:id/recording', () => {
  it('streams the whole recording to its owner as audio/wav', async () => {
    const res = await fetchBytes(owner.client, url(withRecording));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(wav.length));
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.body.equals(wav)).toBe(true);
  });

  it('is the URL the call log gives', async () => {
    const list = await owner.client.get('/api/call-logs');
    const call = list.body.callLogs.find((c: { id: number }) => c.id === withRecording);
    expect(call.recordingUrl).toBe(url(withRecording));
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=44-', 44, wav.length - 1],
    ['bytes=-100', wav.length - 100, wav.length - 1],
    ['bytes=16000-99999', 16000, wav.length - 1],
  ])('answers Range %s with 206 and exactly those bytes', async (range, start, end) => {
    const res = await fetchBytes(owner.client, url(withRecording), { range });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${wav.length}`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.body.equals(wav.subarray(start, end + 1))).toBe(true);
  });

  it('answers a range past the end with 416 and the size', async () => {
    const res = await fetchBytes(owner.client, url(withRecording), { range: `bytes=${wav.length}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${wav.length}`);
  });

  it('sends the whole file when If-Range names an older version', async () => {
    const res = await fetchBytes(owner.client, url(withRecording), { range: 'bytes=0-9', 'if-range': '"stale"' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(wav.length);
    const current = (await fetchBytes(owner.client, url(withRecording))).headers.get('etag')!;
    const fresh = await fetchBytes(owner.client, url(withRecording), { range: 'bytes=0-9', 'if-range': current });
    expect(fresh.status).toBe(206);
  });

  it('hides another business’s recording behind the same 404 as a missing one', async () => {
    const theirs = await fetchBytes(stranger.client, url(withRecording));
    const nothing = await fetchBytes(stranger.client, url(999999));
    expect(theirs.status).toBe(404);
    expect(JSON.parse(theirs.body.toString())).toEqual({ message: 'Recording not found.' });
    expect(theirs.body.equals(nothing.body)).toBe(true);
    const ranged = await fetchBytes(stranger.client, url(withRecording), { range: 'bytes=0-10' });
    expect(ranged.status).toBe(404);
  });

  it('gives an admin no access to a customer’s recording', async () => {
    const admin = await signInAdmin(server);
    expect((await fetchBytes(admin, url(withRecording))).status).toBe(404);
  });

  it('asks a signed-out visitor to log in', async () => {
    const res = await fetchBytes(null, url(withRecording));
    expect(res.status).toBe(401);
  });

  it.each([
    ['a call without a recording', () => withoutRecording],
    ['a recording missing from disk', () => missingFile],
    ['a stored name that tries to leave recordings/', () => traversal],
    ['an id that is not a number', () => 'abc'],
    ['an id with a path in it', () => '..%2F..%2Fsecret.wav'],
  ])('answers 404 for %s', async (_what, id) => {
    const res = await fetchBytes(owner.client, url(id()));
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('not yours');
  });
});
