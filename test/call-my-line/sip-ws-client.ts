import crypto from 'node:crypto';
import type { LookupFunction } from 'node:net';
import WebSocket from 'ws';

// A bare SIP-over-WebSocket caller (RFC 7118) for the proxy's refusal tests: one INVITE with a
// browser-shaped offer (DTLS fingerprint, ICE, rtcp-mux), digest authentication, and the final
// answer. No media: what is tested is who may ring what.

const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');
const rand = () => crypto.randomBytes(6).toString('hex');

export interface Credentials {
  wsPath: string;
  sipUri: string;
  user: string;
  password: string;
}

/**
 * The upgrade as a browser on `origin` with `cookie` would make it: the socket, or the HTTP status
 * it was refused with. `tls`: how to reach an https:// console (its CA, a name's lookup; test/https).
 */
export function connect(
  baseUrl: string,
  wsPath: string,
  headers: { origin?: string; cookie?: string | null },
  tls: { ca?: string; lookup?: LookupFunction } = {},
): Promise<SipSocket | { refused: number }> {
  return new Promise((resolve, reject) => {
    // ws hands its options on to https.request, which takes `lookup` (its types leave it out).
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + wsPath, 'sip', {
      ...(tls as WebSocket.ClientOptions),
      headers: { ...(headers.origin ? { origin: headers.origin } : {}), ...(headers.cookie ? { cookie: headers.cookie } : {}) },
    });
    ws.once('unexpected-response', (_req, res) => resolve({ refused: res.statusCode ?? 0 }));
    ws.once('open', () => resolve(new SipSocket(ws)));
    ws.once('error', reject);
  });
}

export class SipSocket {
  private readonly frames: string[] = [];
  private waiters: Array<() => void> = [];
  closed = false;
  /** The close frame's code and reason, once the proxy has closed the socket. */
  closedWith?: { code: number; reason: string };

  constructor(private readonly ws: WebSocket) {
    ws.on('message', (d) => {
      this.frames.push(d.toString());
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('close', (code, reason) => {
      this.closed = true;
      this.closedWith = { code, reason: reason.toString() };
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** One frame as it is (a test's own SIP message); false once the socket has closed. */
  send(frame: string): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(frame);
    return true;
  }

  private async next(match: (f: string) => boolean): Promise<string> {
    for (;;) {
      const i = this.frames.findIndex(match);
      if (i >= 0) return this.frames.splice(i, 1)[0]!;
      if (this.closed) throw new Error('the SIP WebSocket closed');
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** Rings `target` (a SIP URI) as `user`; resolves with the final status and, if answered, a way to hang up. */
  async invite(creds: { user: string; password: string }, target: string): Promise<{ status: number; hangUp(): void }> {
    const callId = rand();
    const tag = rand();
    let cseq = 1;
    const from = `<sip:${creds.user}@callkeeper.invalid>;tag=${tag}`;
    const body = offer();
    const send = (auth?: string) => {
      const branch = `z9hG4bK${rand()}`;
      this.ws.send(
        [
          `INVITE ${target} SIP/2.0`,
          `Via: SIP/2.0/WSS ${rand()}.invalid;branch=${branch}`,
          'Max-Forwards: 70',
          `To: <${target}>`,
          `From: ${from}`,
          `Call-ID: ${callId}`,
          `CSeq: ${cseq} INVITE`,
          `Contact: <sip:${creds.user}@${rand()}.invalid;transport=ws>`,
          ...(auth ? [`Authorization: ${auth}`] : []),
          'Content-Type: application/sdp',
          `Content-Length: ${Buffer.byteLength(body)}`,
          '',
          body,
        ].join('\r\n'),
      );
      return branch;
    };
    let branch = send();
    const final = (b: string) => this.next((f) => /^SIP\/2\.0 [2-6]\d\d /.test(f) && f.includes(b));
    let answer = await final(branch);
    let status = Number(answer.split(' ')[1]);
    this.ack(target, from, answer, callId, cseq, status);
    if (status === 401 || status === 407) {
      const challenge = /(?:WWW|Proxy)-Authenticate:\s*Digest (.+)/i.exec(answer)![1]!;
      const param = (k: string) => new RegExp(`${k}="?([^",]+)"?`).exec(challenge)?.[1] ?? '';
      const realm = param('realm');
      const nonce = param('nonce');
      const cnonce = rand();
      const ha1 = md5(`${creds.user}:${realm}:${creds.password}`);
      const ha2 = md5(`INVITE:${target}`);
      const response = md5(`${ha1}:${nonce}:00000001:${cnonce}:auth:${ha2}`);
      cseq++;
      branch = send(
        `Digest username="${creds.user}", realm="${realm}", nonce="${nonce}", uri="${target}", response="${response}", algorithm=MD5, qop=auth, nc=00000001, cnonce="${cnonce}"${param('opaque') ? `, opaque="${param('opaque')}"` : ''}`,
      );
      answer = await final(branch);
      status = Number(answer.split(' ')[1]);
      this.ack(target, from, answer, callId, cseq, status);
    }
    const toHeader = /^To:.*$/im.exec(answer)?.[0].slice(3).trim() ?? `<${target}>`;
    return {
      status,
      hangUp: () =>
        this.ws.send([`BYE ${target} SIP/2.0`, `Via: SIP/2.0/WSS ${rand()}.invalid;branch=z9hG4bK${rand()}`, 'Max-Forwards: 70', `To: ${toHeader}`, `From: ${from}`, `Call-ID: ${callId}`, `CSeq: ${cseq + 1} BYE`, 'Content-Length: 0', '', ''].join('\r\n')),
    };
  }

  /** ACK for a final answer: a 2xx's in its own transaction, a refusal's with the INVITE's branch. */
  private ack(target: string, from: string, answer: string, callId: string, cseq: number, status: number): void {
    const to = /^To:.*$/im.exec(answer)?.[0].slice(3).trim();
    const via = /^Via:.*$/im.exec(answer)?.[0];
    if (!to || !via) return;
    const v = status < 300 ? `Via: SIP/2.0/WSS ${rand()}.invalid;branch=z9hG4bK${rand()}` : via;
    this.ws.send([`ACK ${target} SIP/2.0`, v, 'Max-Forwards: 70', `To: ${to}`, `From: ${from}`, `Call-ID: ${callId}`, `CSeq: ${cseq} ACK`, 'Content-Length: 0', '', ''].join('\r\n'));
  }

  close(): void {
    this.ws.close();
  }
}

/** What a browser offers: Opus aside, G.711 over DTLS-SRTP with ICE and rtcp-mux. */
function offer(): string {
  const port = 40000 + 2 * Math.floor(Math.random() * 10000);
  const fp = Array.from(crypto.randomBytes(32), (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  return [
    'v=0',
    `o=- ${Date.now()} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    `m=audio ${port} UDP/TLS/RTP/SAVPF 0 8`,
    'c=IN IP4 127.0.0.1',
    `a=ice-ufrag:${rand().slice(0, 4)}`,
    `a=ice-pwd:${crypto.randomBytes(12).toString('hex')}`,
    `a=fingerprint:sha-256 ${fp}`,
    'a=setup:actpass',
    'a=mid:0',
    'a=sendrecv',
    'a=rtcp-mux',
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:8 PCMA/8000',
    `a=candidate:1 1 udp 2122260223 127.0.0.1 ${port} typ host`,
    '',
  ].join('\r\n');
}
