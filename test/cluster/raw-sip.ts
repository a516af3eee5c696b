import dgram from 'node:dgram';
import { waitUntil } from '../helpers/wait.js';

// Plain UDP sockets that speak raw SIP to the real Kamailio, so a test reads every header it
// sends and sees exactly what arrives where (test/cluster/advertise.test.ts, in-call-hops.test.ts).

export type Endpoint = Awaited<ReturnType<typeof endpoint>>;

/** A UDP endpoint on `host` (a loopback address) that keeps what it receives and can send raw SIP. */
export async function endpoint(host = '127.0.0.1') {
  const socket = dgram.createSocket('udp4');
  const received: string[] = [];
  socket.on('message', (m) => received.push(m.toString('utf8')));
  await new Promise<void>((r) => socket.bind(0, host, r));
  return {
    socket,
    host,
    port: socket.address().port,
    received,
    send: (msg: string, port: number) => new Promise<void>((r, j) => socket.send(msg, port, '127.0.0.1', (e) => (e ? j(e) : r()))),
    /** The first message received whose start line starts with `start`. */
    next: (start: string) =>
      waitUntil(() => {
        const m = received.find((x) => x.startsWith(start));
        if (!m) throw new Error(`no ${start} yet`);
        received.splice(received.indexOf(m), 1);
        return m;
      }, 10_000, 20),
  };
}

export const headers = (msg: string, name: string) =>
  msg
    .split('\r\n')
    .filter((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    .map((l) => l.slice(name.length + 1).trim());

/** A request from `port` on `host` (the sender's Via) with the given header lines, no body. */
export function request(startLine: string, port: number, branch: string, lines: string[], host = '127.0.0.1'): string {
  return [startLine, `Via: SIP/2.0/UDP ${host}:${port};branch=z9hG4bK-${branch}`, ...lines, 'Max-Forwards: 70', 'Content-Length: 0', '', ''].join('\r\n');
}

/** A response to `request` with its Via, From, To (tagged), Call-ID, CSeq and Record-Route. */
export function answer(request: string, status: string, contact?: string): string {
  const copy = ['Via', 'Record-Route', 'From', 'Call-ID', 'CSeq'].flatMap((h) => headers(request, h).map((v) => `${h}: ${v}`));
  const to = `To: ${headers(request, 'To')[0]}${headers(request, 'To')[0]!.includes('tag=') ? '' : ';tag=node'}`;
  return [`SIP/2.0 ${status}`, ...copy, to, ...(contact ? [`Contact: <${contact}>`] : []), 'Content-Length: 0', '', ''].join('\r\n');
}
