// A push service on loopback (RFC 8030), for tests and benches: it plays what FCM, Mozilla's
// autopush and Apple's web.push.apple.com do with a Web Push request, and checks it as they
// would, with its own code (not web-push's):
// - the VAPID JWT in `Authorization: vapid t=…, k=…` (RFC 8292): ES256, audience = the
//   endpoint's origin, exp in the future and at most 24 h away, signed by the key in k, and k
//   the box's public key (GET /api/user/push/key), when the test has told it that key;
// - the body, aes128gcm (RFC 8188/8291), decrypted with the subscription's own keys, which the
//   double made as a browser does (an ECDH P-256 pair and a 16-byte auth secret), with http_ece.
// It records what arrived, and answers 201, or what the test scripts: 404, 410, 500, or nothing.
// HTTPS with the webhook fixtures' self-signed certificate (localhost, 127.0.0.1, receiver.example):
// web-push sends over https only, so the box trusts it through PushOptions.testPushService.
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'webhooks', 'fixtures');
export const PUSH_SERVICE_CA = fs.readFileSync(path.join(fixtures, 'receiver-cert.pem'), 'utf8');
const KEY = fs.readFileSync(path.join(fixtures, 'receiver-key.pem'), 'utf8');

/** A browser's subscription as PushSubscription.toJSON() gives it, and the name a console would suggest. */
export interface DoubleSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

interface ArrivedPush {
  /** The subscription's id in the endpoint's path. */
  device: string;
  /** The decrypted payload, parsed (the box sends JSON). */
  payload: Record<string, unknown>;
  ttl: number;
  urgency: string | undefined;
  jwt: { aud: string; exp: number; sub: string };
  at: number;
}

/** A request the double refused, and why (a test asserts there are none). */
interface RefusedPush {
  device: string;
  why: string;
}

/** What to answer the next requests with: a status, or never answer ('hang'). */
type PushAnswer = number | 'hang';

export interface PushServiceDouble {
  port: number;
  /** https://127.0.0.1:port, the endpoints' origin (the JWT's expected audience). */
  origin: string;
  arrived: ArrivedPush[];
  refused: RefusedPush[];
  /** Answers for the coming requests, in order; when empty, `always` (default 201). */
  script: PushAnswer[];
  /** The answer when the script is empty (e.g. 500 while the service is "down"). */
  always: PushAnswer;
  /** The box's VAPID public key (base64url): once set, a JWT signed with another key is refused. */
  expectKey: string | null;
  /** Makes a new subscription (a device), with its own keys. */
  subscribe(): DoubleSubscription;
  close(): Promise<void>;
}

const b64u = (b: Buffer) => b.toString('base64url');

/** A JWK for a raw uncompressed P-256 point (0x04 || X || Y). */
function p256Jwk(raw: Buffer): crypto.JsonWebKey {
  return { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33, 65)) };
}

/** RFC 8292 §2–3: the reason a VAPID header is not acceptable, or the claims when it is. */
function checkVapid(header: string | undefined, origin: string, expectKey: string | null): { claims: ArrivedPush['jwt'] } | { why: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) return { why: `Authorization is not "vapid t=…, k=…": ${String(header).slice(0, 40)}` };
  const [token, key] = [m[1]!, m[2]!];
  if (expectKey && key !== expectKey) return { why: 'k is not the box\'s public key' };
  const parts = token.split('.');
  if (parts.length !== 3) return { why: 'the JWT has not three parts' };
  const head = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: string };
  if (head.alg !== 'ES256') return { why: `the JWT's alg is ${head.alg}, not ES256` };
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) return { why: 'k is not an uncompressed P-256 point' };
  const publicKey = crypto.createPublicKey({ key: p256Jwk(raw), format: 'jwk' });
  const signed = crypto.verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2]!, 'base64url'));
  if (!signed) return { why: 'the JWT\'s ES256 signature does not verify with k' };
  const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as ArrivedPush['jwt'];
  if (claims.aud !== origin) return { why: `the JWT's aud is ${claims.aud}, not ${origin}` };
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now)) return { why: 'the JWT has expired' };
  if (claims.exp > now + 24 * 3600) return { why: 'the JWT expires more than 24 hours from now' };
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) return { why: 'the JWT\'s sub is not a mailto: or https: contact' };
  return { claims };
}

export async function startPushService(): Promise<PushServiceDouble> {
  const devices = new Map<string, { ecdh: crypto.ECDH; auth: Buffer }>();
  const double = { arrived: [] as ArrivedPush[], refused: [] as RefusedPush[], script: [] as PushAnswer[], always: 201 as PushAnswer, expectKey: null as string | null };
  let origin = '';
  const server = https.createServer({ key: KEY, cert: PUSH_SERVICE_CA }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const device = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const answer = double.script.shift() ?? double.always;
      if (answer === 'hang') return; // the sender's time-out ends it
      const refuse = (status: number, why: string) => {
        double.refused.push({ device, why });
        res.writeHead(status).end(why);
      };
      const keys = devices.get(device);
      if (req.method !== 'POST' || !keys) return refuse(404, 'no such subscription');
      const vapid = checkVapid(req.headers.authorization, origin, double.expectKey);
      if ('why' in vapid) return refuse(401, vapid.why);
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, `Content-Encoding is ${req.headers['content-encoding']}, not aes128gcm`);
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, 'TTL is missing');
      let payload: Record<string, unknown>;
      try {
        const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: b64u(keys.auth) });
        payload = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
      } catch (err) {
        return refuse(400, `the body does not decrypt with the subscription's keys: ${(err as Error).message}`);
      }
      // Scripted failures answer after the checks: the request itself was right.
      if (answer !== 201) return void res.writeHead(answer).end(answer === 410 ? 'push subscription has unsubscribed or expired' : 'scripted');
      double.arrived.push({ device, payload, ttl, urgency: req.headers.urgency as string | undefined, jwt: vapid.claims, at: performance.now() });
      res.writeHead(201, { location: `${origin}/message/${crypto.randomUUID()}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `https://127.0.0.1:${port}`;
  return Object.assign(double, {
    port,
    origin,
    subscribe(): DoubleSubscription {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const id = crypto.randomBytes(9).toString('base64url');
      devices.set(id, { ecdh, auth });
      return { endpoint: `${origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
