// The guarded transport the crawler and the calendars share (core/net/guarded-fetch.ts), on
// loopback servers through the real guard: a body cut or refused at the cap, a body left unread,
// each redirect hop checked, each request's own bound.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedRequest, type GuardedRequestOptions } from '../../core/net/guarded-fetch.js';
import { RefusedAddressError } from '../../core/webhooks/address-guard.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); })));
});

async function serve(host: string, handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const MB = 1024 * 1024;
const get = (url: string, opts: Partial<GuardedRequestOptions> = {}) =>
  guardedRequest(new URL(url), { method: 'GET', headers: new Headers() }, { guard: { allowLoopback: true }, maxBytes: MB, oversize: 'cut', subject: 'the website', ...opts });
const bigBody = (res: http.ServerResponse) => {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('x'.repeat(5 * MB));
};

describe('the guarded transport', () => {
  it("cuts a body at the cap when asked to, keeping what fits (a web page)", async () => {
    const url = await serve('127.0.0.1', (_req, res) => bigBody(res));
    const answer = await get(url);
    expect(answer.cut).toBe(true);
    expect(answer.body.length).toBe(MB);
  });

  it("refuses it otherwise (a calendar's answer must be whole)", async () => {
    const url = await serve('127.0.0.1', (_req, res) => bigBody(res));
    await expect(get(url, { oversize: 'refuse', subject: 'the calendar' })).rejects.toThrow("the calendar's answer is larger than 1 MB");
  });

  it('leaves a body unread when the headers say it is not wanted', async () => {
    const url = await serve('127.0.0.1', (_req, res) => { res.on('error', () => {}); res.writeHead(200, { 'content-type': 'application/pdf' }); res.end('%PDF-1.4'); });
    const answer = await get(url, { wantBody: (_status, headers) => headers.get('content-type') === 'text/html' });
    expect(answer).toMatchObject({ status: 200, bodySkipped: true });
    expect(answer.body.length).toBe(0);
  });

  it('checks every redirect hop: one to a host the guard refuses is not connected to', async () => {
    let reached = 0;
    const other = await serve('127.0.0.2', (_req, res) => { reached++; res.end('inside'); });
    const url = await serve('127.0.0.1', (_req, res) => { res.writeHead(302, { location: `${other}/` }); res.end(); });
    const onlyFirst = { allowLoopback: (host: string) => host === '127.0.0.1' };
    await expect(get(url, { guard: onlyFirst })).rejects.toBeInstanceOf(RefusedAddressError);
    expect(reached).toBe(0);
    // 'manual' hands the redirect back to the caller (the crawler judges it), unfollowed.
    const answer = await get(url, { guard: onlyFirst, redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(reached).toBe(0);
  });

  it('gives up on a request past its own bound', async () => {
    const url = await serve('127.0.0.1', () => { /* never answers */ });
    await expect(get(url, { timeoutMs: 200 })).rejects.toMatchObject({ name: 'AbortError', cause: { name: 'TimeoutError' } });
  });
});
