import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KamailioInstance } from './kamailio-instance.js';
import { endpoint, headers, request, type Endpoint } from './raw-sip.js';

// Issue 39, M6: a request inside a call (it has a To tag) follows the Route headers its sender
// wrote. deploy/kamailio relays it only to a node or to the carrier, so nobody can use this
// proxy's address, the one the carrier trusts, to send a BYE, a MESSAGE or a re-INVITE to
// anyone else. The real Kamailio 5.6 between plain UDP sockets: the carrier on 127.0.0.1 (as
// KAMAILIO_CARRIERS says), a node on 127.0.0.2, and two hosts that are neither, each recording
// everything it receives: one on another loopback address, one on the node's address but
// another port.

describe('Kamailio relays requests inside a call only to a node or to the carrier (M6)', () => {
  let kamailio: KamailioInstance;
  let carrier: Endpoint;
  let node: Endpoint;
  let foreign: Endpoint;
  let besideNode: Endpoint;
  let seq = 0;

  beforeAll(async () => {
    carrier = await endpoint('127.0.0.1');
    node = await endpoint('127.0.0.2');
    foreign = await endpoint('127.0.0.9');
    besideNode = await endpoint('127.0.0.2');
    kamailio = await KamailioInstance.start([`127.0.0.2:${node.port}`], { KAMAILIO_CARRIERS: '127.0.0.1' });
  });
  afterAll(async () => {
    await kamailio?.stop();
    for (const e of [carrier, node, foreign, besideNode]) e?.socket.close();
  });

  const self = () => `<sip:127.0.0.1:${kamailio.port};lr>`;

  /** `method` inside a made-up call, from `from`, with these Route headers and request URI; resolves with the request as sent. */
  async function inCall(from: Endpoint, method: string, uri: string, routes: string[]) {
    const n = ++seq;
    const msg = request(
      `${method} ${uri} SIP/2.0`,
      from.port,
      `hop-${n}`,
      [
        ...routes.map((r) => `Route: ${r}`),
        `From: <sip:+447700900111@${from.host}>;tag=from-${n}`,
        `To: <sip:+441632960001@127.0.0.1>;tag=to-${n}`,
        `Call-ID: hop-${n}-${Date.now()}@${from.host}`,
        `CSeq: 2 ${method}`,
      ],
      from.host,
    );
    await from.send(msg, kamailio.port);
    return msg;
  }

  /** The 403 Kamailio answered to `sent`, at its sender. */
  async function refused(from: Endpoint, sent: string) {
    const reply = await from.next('SIP/2.0 403');
    expect(headers(reply, 'Call-ID')).toEqual(headers(sent, 'Call-ID'));
    return reply;
  }

  it('M6: a BYE, MESSAGE and re-INVITE routed to a host that is neither is answered 403 and relayed nowhere', async () => {
    const at = (e: Endpoint) => `${e.host}:${e.port}`;
    const attempts: Array<[Endpoint, string, string, string[]]> = [
      // The probe's BYE: this proxy's own Route on top, the foreign host as the request URI.
      [carrier, 'BYE', `sip:victim@${at(foreign)}`, [self()]],
      // A Route naming the foreign host straight away.
      [carrier, 'BYE', `sip:victim@${at(foreign)}`, [`<sip:${at(foreign)};lr>`]],
      [carrier, 'MESSAGE', `sip:victim@${at(foreign)}`, [self()]],
      [carrier, 'INVITE', `sip:victim@127.0.0.1`, [self(), `<sip:${at(foreign)};lr>`]],
      // From a node's side too, and to the node's own host on a port that is not the node's.
      [node, 'BYE', `sip:victim@${at(besideNode)}`, [self()]],
      [carrier, 'MESSAGE', `sip:victim@${at(besideNode)}`, [self()]],
    ];
    for (const [from, method, uri, routes] of attempts) {
      const sent = await inCall(from, method, uri, routes);
      const reply = await refused(from, sent);
      expect(headers(reply, 'CSeq')).toEqual([`2 ${method}`]);
    }
    // Kamailio answered each one itself instead of relaying it: nothing reached either host.
    expect(foreign.received).toEqual([]);
    expect(besideNode.received).toEqual([]);
    expect(kamailio.log).toMatch(/BYE from 127\.0\.0\.1:\d+ routed to 127\.0\.0\.9:\d+, neither a node nor the carrier: refused/);
  });

  it('requests inside a call still reach the node and the carrier', async () => {
    await inCall(carrier, 'BYE', `sip:node@127.0.0.2:${node.port}`, [self()]);
    const bye = await node.next('BYE');
    expect(headers(bye, 'Route')).toEqual([]);
    await inCall(node, 'INFO', `sip:carrier@127.0.0.1:${carrier.port}`, [self()]);
    expect(headers(await carrier.next('INFO'), 'Route')).toEqual([]);
    // A Route naming the node itself (the node's own record-route) is followed too.
    await inCall(carrier, 'MESSAGE', `sip:node@127.0.0.2:${node.port}`, [self(), `<sip:127.0.0.2:${node.port};lr>`]);
    await node.next('MESSAGE');
    expect(carrier.received.filter((m) => m.startsWith('SIP/2.0 403'))).toEqual([]);
  });
});

describe('a node named by host name (as docker-compose names its services)', () => {
  let kamailio: KamailioInstance;
  let caller: Endpoint;
  let node: Endpoint;
  let besideNode: Endpoint;

  beforeAll(async () => {
    caller = await endpoint('127.0.0.1');
    node = await endpoint('127.0.0.1');
    besideNode = await endpoint('127.0.0.1');
    // The carrier is elsewhere: only the node's name can let a request to 127.0.0.1 through.
    kamailio = await KamailioInstance.start([`localhost:${node.port}`], { KAMAILIO_CARRIERS: '192.0.2.1' });
  });
  afterAll(async () => {
    await kamailio?.stop();
    for (const e of [caller, node, besideNode]) e?.socket.close();
  });

  it('matches the addresses the system resolver gives for the name, on the node’s port only', async () => {
    const send = (uri: string, branch: string) =>
      caller.send(
        request(`BYE ${uri} SIP/2.0`, caller.port, branch, [
          `Route: <sip:127.0.0.1:${kamailio.port};lr>`,
          `From: <sip:+447700900111@127.0.0.1>;tag=${branch}-from`,
          `To: <sip:+441632960001@127.0.0.1>;tag=${branch}-to`,
          `Call-ID: ${branch}-${Date.now()}@127.0.0.1`,
          'CSeq: 2 BYE',
        ]),
        kamailio.port,
      );
    await send(`sip:node@127.0.0.1:${node.port}`, 'named-node');
    expect(headers(await node.next('BYE'), 'Route')).toEqual([]);
    await send(`sip:node@127.0.0.1:${besideNode.port}`, 'named-other-port');
    await caller.next('SIP/2.0 403');
    expect(besideNode.received).toEqual([]);
  });
});
