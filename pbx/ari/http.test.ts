import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAriHttp, type AriHttp } from './http.js';
import { AriNotFoundError, AriRequestError, AriTimeoutError } from './types.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, nthOnSocket: number) => void;

const open: Array<{ server: http.Server; client: AriHttp }> = [];

async function serve(handler: Handler, timeoutMs = 2000) {
  const connections: number[] = [];
  const server = http.createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    handler(req, res, socket.served);
  });
  server.on('connection', () => connections.push(Date.now()));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const client = createAriHttp({ url: `http://127.0.0.1:${port}`, username: 'core', password: 'secret', requestTimeoutMs: timeoutMs });
  open.push({ server, client });
  return { client, connections };
}

afterEach(async () => {
  for (const { server, client } of open.splice(0)) {
    client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

describe('the ARI requester', () => {
  it('sends Basic auth under /ari with URI-encoded query values, and parses the JSON answer', async () => {
    let seen: { url?: string; method?: string; auth?: string } = {};
    const { client } = await serve((req, res) => {
      seen = { url: req.url, method: req.method, auth: req.headers.authorization };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'pb-1', state: 'queued' }));
    });
    const answer = await client.json('POST', '/channels/ch%201/play', { media: 'sound:tt-monkeys,sound:beep', playbackId: 'pb 1', skip: undefined, beep: false });
    expect(answer).toEqual({ id: 'pb-1', state: 'queued' });
    expect(seen).toEqual({
      method: 'POST',
      url: '/ari/channels/ch%201/play?media=sound%3Att-monkeys%2Csound%3Abeep&playbackId=pb%201&beep=false',
      auth: `Basic ${Buffer.from('core:secret').toString('base64')}`,
    });
  });

  it('answers undefined for 204 and the raw bytes for a file', async () => {
    const audio = Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0x10]);
    const { client } = await serve((req, res) => (req.url?.endsWith('/file') ? res.writeHead(200, { 'content-type': 'audio/wav' }).end(audio) : res.writeHead(204).end()));
    expect(await client.json('POST', '/channels/c1/answer')).toBeUndefined();
    expect(Buffer.compare(await client.bytes('/recordings/stored/m1/file'), audio)).toBe(0);
  });

  it("turns 404 into AriNotFoundError and other refusals into AriRequestError, with Asterisk's message and the status", async () => {
    const { client } = await serve((req, res) => {
      const status = req.url?.includes('gone') ? 404 : 409;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: status === 404 ? 'Channel not found' : 'Channel not in Stasis application' }));
    });
    const gone = await client.json('GET', '/channels/gone').catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(AriNotFoundError);
    expect(gone).toMatchObject({ status: 404, message: expect.stringContaining('Channel not found') });
    const refused = await client.json('POST', '/channels/busy/answer').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AriRequestError);
    expect(refused).not.toBeInstanceOf(AriNotFoundError);
    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining('Channel not in Stasis application') });
  });

  it('gives up on an Asterisk that never answers with AriTimeoutError', async () => {
    const { client } = await serve(() => undefined, 150);
    await expect(client.json('POST', '/channels/c1/answer')).rejects.toBeInstanceOf(AriTimeoutError);
  });

  it('reuses one kept-alive socket for consecutive requests', async () => {
    const { client, connections } = await serve((_req, res) => res.writeHead(204).end());
    for (let i = 0; i < 5; i++) await client.json('POST', `/channels/c${i}/answer`);
    expect(connections).toHaveLength(1);
  });

  it('sends a request once more on a fresh socket when a kept-alive one was closed under it', async () => {
    // The server drops every connection at its second request, as Asterisk does to a
    // session it has just timed out: the request never reached the application.
    let handled = 0;
    const { client, connections } = await serve((req, res, nth) => {
      if (nth > 1) return req.socket.destroy();
      handled++;
      res.writeHead(204).end();
    });
    await client.json('POST', '/channels/c1/answer');
    await client.json('POST', '/channels/c2/answer');
    expect(handled).toBe(2);
    expect(connections).toHaveLength(2);
  });

  it('does not repeat a request whose fresh connection failed', async () => {
    let attempts = 0;
    const { client } = await serve((req) => {
      attempts++;
      req.socket.destroy();
    });
    await expect(client.json('POST', '/channels/c1/answer')).rejects.toBeInstanceOf(AriRequestError);
    expect(attempts).toBe(1);
  });
});
