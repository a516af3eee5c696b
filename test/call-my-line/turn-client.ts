import crypto from 'node:crypto';
import dgram from 'node:dgram';

// A bare TURN client over UDP (RFC 8656, STUN's long-term credentials of RFC 8489): what a
// browser does with the box's TURN credentials, and what an owner could do with them by hand:
// allocate a relay, ask coturn for a permission to a peer, send through the relay and read what
// comes back. Only what the tests of coturn's peer rules need.

const COOKIE = 0x2112a442;
const METHOD = { allocate: 0x003, refresh: 0x004, send: 0x006, data: 0x007, createPermission: 0x008 } as const;
const ATTR = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  lifetime: 0x000d,
  xorPeerAddress: 0x0012,
  data: 0x0013,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedTransport: 0x0019,
} as const;
/** REQUESTED-TRANSPORT's protocol numbers. */
const UDP = 17;
export const TCP = 6;

type Attr = [type: number, value: Buffer];

function encode(type: number, id: Buffer, attrs: Attr[], key?: Buffer): Buffer {
  const body = Buffer.concat(attrs.map(([t, v]) => attribute(t, v)));
  const header = (length: number) => {
    const h = Buffer.alloc(20);
    h.writeUInt16BE(type, 0);
    h.writeUInt16BE(length, 2);
    h.writeUInt32BE(COOKIE, 4);
    id.copy(h, 8);
    return h;
  };
  if (!key) return Buffer.concat([header(body.length), body]);
  // MESSAGE-INTEGRITY covers the message with its length already counting the attribute itself.
  const mac = crypto.createHmac('sha1', key).update(Buffer.concat([header(body.length + 24), body])).digest();
  return Buffer.concat([header(body.length + 24), body, attribute(ATTR.messageIntegrity, mac)]);
}

function attribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function decode(msg: Buffer): { type: number; id: Buffer; attrs: Map<number, Buffer> } | undefined {
  if (msg.length < 20 || msg.readUInt32BE(4) !== COOKIE) return undefined;
  const attrs = new Map<number, Buffer>();
  for (let at = 20; at + 4 <= msg.length; ) {
    const t = msg.readUInt16BE(at);
    const len = msg.readUInt16BE(at + 2);
    if (!attrs.has(t)) attrs.set(t, msg.subarray(at + 4, at + 4 + len));
    at += 4 + Math.ceil(len / 4) * 4;
  }
  return { type: msg.readUInt16BE(0), id: msg.subarray(8, 20), attrs };
}

function xorAddress(address: string, port: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt8(0x01, 1);
  b.writeUInt16BE(port ^ (COOKIE >>> 16), 2);
  const ip = address.split('.').map(Number);
  b.writeUInt32BE((((ip[0]! << 24) | (ip[1]! << 16) | (ip[2]! << 8) | ip[3]!) ^ COOKIE) >>> 0, 4);
  return b;
}

function readXorAddress(b: Buffer): { address: string; port: number } {
  const port = b.readUInt16BE(2) ^ (COOKIE >>> 16);
  const n = (b.readUInt32BE(4) ^ COOKIE) >>> 0;
  return { address: [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'), port };
}

function errorCodeOf(attrs: Map<number, Buffer>): number {
  const e = attrs.get(ATTR.errorCode);
  return e ? e.readUInt8(2) * 100 + e.readUInt8(3) : 0;
}

/** The outcome of a request: 200 or the error code coturn answered (403 Forbidden IP, 486 quota, 442 transport…). */
export type TurnStatus = number;

export class TurnClient {
  private readonly socket = dgram.createSocket('udp4');
  private readonly waiting = new Map<string, (m: NonNullable<ReturnType<typeof decode>>) => void>();
  private readonly inbox: Array<{ from: { address: string; port: number }; data: Buffer }> = [];
  private inboxWaiter?: () => void;
  private realm = '';
  private nonce = Buffer.alloc(0);
  private key?: Buffer;
  relayed?: { address: string; port: number };

  private constructor(
    private readonly server: { host: string; port: number },
    private readonly creds: { username: string; credential: string },
  ) {
    this.socket.on('message', (raw) => {
      const m = decode(raw);
      if (!m) return;
      if (m.type === (0x0010 | METHOD.data)) {
        const peer = m.attrs.get(ATTR.xorPeerAddress);
        const data = m.attrs.get(ATTR.data);
        if (peer && data) this.inbox.push({ from: readXorAddress(peer), data: Buffer.from(data) });
        this.inboxWaiter?.();
        return;
      }
      this.waiting.get(m.id.toString('hex'))?.(m);
    });
  }

  /** `turn:host:port?transport=udp` and the box's credentials. */
  static async open(url: string, creds: { username: string; credential: string }): Promise<TurnClient> {
    const m = /^turn:([^:?]+):(\d+)/.exec(url);
    if (!m) throw new Error(`not a TURN URL: ${url}`);
    const c = new TurnClient({ host: m[1]!, port: Number(m[2]) }, creds);
    await new Promise<void>((r) => c.socket.bind(0, '127.0.0.1', r));
    return c;
  }

  /** One request, re-sent on silence (UDP), answered by its transaction id. */
  private request(method: number, attrs: Attr[], signed: boolean): Promise<NonNullable<ReturnType<typeof decode>>> {
    const id = crypto.randomBytes(12);
    const all: Attr[] = signed
      ? [...attrs, [ATTR.username, Buffer.from(this.creds.username)], [ATTR.realm, Buffer.from(this.realm)], [ATTR.nonce, this.nonce]]
      : attrs;
    const msg = encode(method, id, all, signed ? this.key : undefined);
    return new Promise((resolve, reject) => {
      let tries = 0;
      const send = () => {
        if (++tries > 10) {
          this.waiting.delete(id.toString('hex'));
          return reject(new Error(`coturn did not answer a TURN request (method ${method})`));
        }
        this.socket.send(msg, this.server.port, this.server.host);
        timer = setTimeout(send, 500);
      };
      let timer: NodeJS.Timeout;
      this.waiting.set(id.toString('hex'), (m) => {
        clearTimeout(timer);
        this.waiting.delete(id.toString('hex'));
        resolve(m);
      });
      send();
    });
  }

  /** Allocate a relay with the long-term credential (the first, unsigned request fetches realm and nonce). */
  async allocate(transport = UDP): Promise<TurnStatus> {
    const requested: Attr = [ATTR.requestedTransport, Buffer.from([transport, 0, 0, 0])];
    const challenge = await this.request(METHOD.allocate, [requested], false);
    const code = errorCodeOf(challenge.attrs);
    if (code !== 401) return code || 200;
    this.realm = challenge.attrs.get(ATTR.realm)!.toString();
    this.nonce = Buffer.from(challenge.attrs.get(ATTR.nonce)!);
    this.key = crypto.createHash('md5').update(`${this.creds.username}:${this.realm}:${this.creds.credential}`).digest();
    const answer = await this.request(METHOD.allocate, [requested], true);
    const relayed = answer.attrs.get(ATTR.xorRelayedAddress);
    if (relayed) this.relayed = readXorAddress(relayed);
    return errorCodeOf(answer.attrs) || 200;
  }

  /** May the relay reach `address`? coturn's answer to CreatePermission. */
  async permit(address: string): Promise<TurnStatus> {
    const answer = await this.request(METHOD.createPermission, [[ATTR.xorPeerAddress, xorAddress(address, 0)]], true);
    return errorCodeOf(answer.attrs) || 200;
  }

  /** Sends `data` to the peer through the relay (a Send indication). */
  send(peer: { address: string; port: number }, data: Buffer): void {
    const msg = encode(0x0010 | METHOD.send, crypto.randomBytes(12), [
      [ATTR.xorPeerAddress, xorAddress(peer.address, peer.port)],
      [ATTR.data, data],
    ]);
    this.socket.send(msg, this.server.port, this.server.host);
  }

  /** The next datagram a peer sent back through the relay. */
  async receive(): Promise<{ from: { address: string; port: number }; data: Buffer }> {
    while (!this.inbox.length) await new Promise<void>((r) => (this.inboxWaiter = r));
    return this.inbox.shift()!;
  }

  /** Gives the allocation back (Refresh with lifetime 0), then closes the socket. */
  async close(): Promise<void> {
    if (this.relayed) await this.request(METHOD.refresh, [[ATTR.lifetime, Buffer.from([0, 0, 0, 0])]], true).catch(() => undefined);
    this.socket.close();
  }
}
