// An independent webhook receiver for tests: a real HTTPS server (the fixture certificate for
// localhost, 127.0.0.1 and receiver.example) that records each request and answers as scripted.
// It checks signatures with its own HMAC code, not the appliance's.
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const here = path.dirname(new URL(import.meta.url).pathname);
export const RECEIVER_CA = fs.readFileSync(path.join(here, 'fixtures', 'receiver-cert.pem'), 'utf8');
const KEY = fs.readFileSync(path.join(here, 'fixtures', 'receiver-key.pem'), 'utf8');

interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What to do with the next request: answer with a status, never answer, or answer when the test says so. */
type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang' | { hold: Promise<number> };

export interface Receiver {
  port: number;
  requests: ReceivedRequest[];
  /** Answers for the coming requests, in order; when empty, 200. */
  script: Answer[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const script: Answer[] = [];
  const server = https.createServer({ key: KEY, cert: RECEIVER_CA }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = script.shift() ?? { status: 200 };
      if (answer === 'hang') return; // the sender's time-out ends it
      if ('hold' in answer) return void answer.hold.then((status) => res.writeHead(status).end('ok'));
      res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The receiver's side of the contract, written from the README's description: parse
 * `t=<unix seconds>,v1=<hex>`, HMAC-SHA256 over `${t}.${body}` with the secret, compare in
 * constant time, and refuse a timestamp outside the 5-minute window.
 */
export function verifySignature(header: string | undefined, body: string, secret: string, nowSeconds: number): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300 || !parts.v1) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
