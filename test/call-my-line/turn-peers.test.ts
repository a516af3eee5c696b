// Issue 39, M1: the TURN credentials the box hands out with a test call relay to the box's
// media address and nowhere else. Debian's coturn runs the configuration the project ships
// (deploy/coturn/turnserver.conf); a bare TURN client uses a credential the box issued as an
// owner could by hand: its permissions to private, loopback, link-local, CGNAT and public
// peers are refused, TCP relays too, and one owner cannot hold more relays than the quota.
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { Coturn, ownAddress } from './coturn.js';
import { ownerWithLine } from './owner-line.js';
import { TCP, TurnClient } from './turn-client.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 60_000 });

interface IceServer {
  urls: string;
  username: string;
  credential: string;
}

describe.skipIf(!real.ok)('the TURN relay a test call’s credentials open', () => {
  let h: RealPbx;
  let turn: Coturn;
  let ice: IceServer;
  const clients: TurnClient[] = [];
  const open = async () => {
    const c = await TurnClient.open(ice.urls, ice);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    turn = await Coturn.start();
    h = await startRealPbx({ env: { TURN_URL: turn.url, TURN_SECRET: turn.secret } });
    const owner = await ownerWithLine(h.server, '+447700900831');
    const res = await owner.client.post<{ iceServers: IceServer[] }>('/api/test-call');
    expect(res.status, res.text).toBe(200);
    ice = res.body.iceServers[0]!;
  }, 240_000);
  afterAll(async () => {
    for (const c of clients) await c.close();
    await h?.close();
    await turn?.close();
  });

  it('relays to the box’s media address, where Asterisk’s RTP is', async () => {
    const peer = dgram.createSocket('udp4');
    await new Promise<void>((r) => peer.bind(0, ownAddress(), r));
    peer.on('message', (m, from) => peer.send(Buffer.concat([Buffer.from('echo:'), m]), from.port, from.address));
    try {
      const c = await open();
      expect(await c.allocate()).toBe(200);
      expect(await c.permit(ownAddress())).toBe(200);
      c.send({ address: ownAddress(), port: peer.address().port }, Buffer.from('hello'));
      const back = await c.receive();
      expect(back.data.toString()).toBe('echo:hello');
      expect(back.from).toEqual({ address: ownAddress(), port: peer.address().port });
    } finally {
      peer.close();
    }
  });

  it('refuses a permission to any other peer: loopback (ARI), private, link-local, CGNAT, the box’s own network, public', async () => {
    const c = await open();
    expect(await c.allocate()).toBe(200);
    const [a, b, c3] = ownAddress().split('.');
    const neighbour = `${a}.${b}.${c3}.${ownAddress().endsWith('.77') ? 78 : 77}`;
    const peers = ['127.0.0.1', '127.0.0.2', '10.1.2.3', '172.16.5.4', '192.168.1.1', '100.64.0.1', '169.254.169.254', neighbour, '8.8.8.8'];
    const answers: Record<string, number> = {};
    for (const p of peers) answers[p] = await c.permit(p);
    expect(answers).toEqual(Object.fromEntries(peers.map((p) => [p, 403])));
  });

  it('refuses a TCP relay, and more relays at once for one owner than the quota (4)', async () => {
    const tcp = await open();
    expect(await tcp.allocate(TCP)).toBe(442);
    // Two allocations are already held by the tests above; two more reach the quota.
    const more = [await open(), await open(), await open()];
    const results = [];
    for (const m of more) results.push(await m.allocate());
    expect(results).toEqual([200, 200, 486]);
  });

  it('logs the TURN user name it issued, never the credential', () => {
    const issued = h.coreLog.filter((l) => l.msg === 'TURN credentials issued with a test call');
    expect(issued).toMatchObject([{ turnUser: ice.username }]);
    expect(JSON.stringify(h.coreLog)).not.toContain(ice.credential);
  });
});
