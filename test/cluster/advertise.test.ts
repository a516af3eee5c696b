import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KamailioInstance } from './kamailio-instance.js';
import { answer, endpoint, headers, request, type Endpoint } from './raw-sip.js';

// Kamailio behind NAT (KAMAILIO_ADVERTISE, as the compose profile runs it behind Docker's
// published 5060): deploy/kamailio's configuration on the real Kamailio, between a "carrier"
// and a "node" that are plain UDP sockets, so every header it sends can be read. Each side
// must be handed a route it can reach: the node this proxy's own address, the carrier the
// advertised public one.

const PUBLIC = '203.0.113.10:5060';

describe('Kamailio behind NAT (KAMAILIO_ADVERTISE): each side of a call routes to an address it reaches', () => {
  let kamailio: KamailioInstance;
  let carrier: Endpoint;
  let node: Endpoint;
  let probes: NodeJS.Timeout;

  beforeAll(async () => {
    carrier = await endpoint();
    node = await endpoint();
    // The node answers Kamailio's OPTIONS probes, so it stays in the set.
    probes = setInterval(() => {
      if (!kamailio) return;
      for (const m of node.received.filter((x) => x.startsWith('OPTIONS'))) {
        node.received.splice(node.received.indexOf(m), 1);
        void node.send(answer(m, '200 OK'), kamailio.port);
      }
    }, 20);
    kamailio = await KamailioInstance.start([`127.0.0.1:${node.port}`], { KAMAILIO_ADVERTISE: PUBLIC });
  });
  afterAll(async () => {
    clearInterval(probes);
    await kamailio?.stop();
    carrier?.socket.close();
    node?.socket.close();
  });

  it('the node gets this proxy’s own address on top of the route and in-call requests reach both sides', async () => {
    const own = `127.0.0.1:${kamailio.port}`;
    const callId = `adv-${Date.now()}@127.0.0.1`;
    const from = `From: <sip:+447700900111@127.0.0.1:${carrier.port}>;tag=carrier`;
    await carrier.send(
      request(`INVITE sip:+441632960001@${PUBLIC} SIP/2.0`, carrier.port, 'invite', [
        from,
        `To: <sip:+441632960001@${PUBLIC}>`,
        `Call-ID: ${callId}`,
        'CSeq: 1 INVITE',
        `Contact: <sip:carrier@127.0.0.1:${carrier.port}>`,
      ]),
      kamailio.port,
    );
    const invite = await node.next('INVITE');
    // Two routes: the node's in-call requests go to the top one (this proxy on the node's
    // network), the carrier's to the bottom one (the public address).
    const routes = headers(invite, 'Record-Route');
    expect(routes).toHaveLength(2);
    expect(routes[0]).toMatch(new RegExp(`^<sip:${own.replace(/\./g, '\\.')};r2=on;`));
    expect(routes[1]).toMatch(new RegExp(`^<sip:${PUBLIC.replace(/\./g, '\\.')};r2=on;`));
    // Responses from the carrier come back to the public address.
    expect(headers(invite, 'Via')[0]).toMatch(new RegExp(`^SIP/2.0/UDP ${PUBLIC.replace(/\./g, '\\.')};`));

    await node.send(answer(invite, '200 OK', `sip:node@127.0.0.1:${node.port}`), kamailio.port);
    const ok = await carrier.next('SIP/2.0 200');
    expect(headers(ok, 'Record-Route')).toEqual(routes);

    // The node hangs up: the BYE follows its route set (top first) and reaches the carrier,
    // naming the public address as where to answer.
    const toTagged = headers(ok, 'To')[0]!;
    await node.send(
      request(`BYE sip:carrier@127.0.0.1:${carrier.port} SIP/2.0`, node.port, 'bye', [
        ...routes.map((r) => `Route: ${r}`),
        `From: ${toTagged}`,
        `To: ${from.slice('From: '.length)}`,
        `Call-ID: ${callId}`,
        'CSeq: 1 BYE',
      ]),
      kamailio.port,
    );
    const bye = await carrier.next('BYE');
    expect(headers(bye, 'Via')[0]).toMatch(new RegExp(`^SIP/2.0/UDP ${PUBLIC.replace(/\./g, '\\.')};`));
    expect(headers(bye, 'Route')).toEqual([]);

    // The carrier's own in-call request (reversed route set, public first) reaches the node.
    await carrier.send(
      request(`INFO sip:node@127.0.0.1:${node.port} SIP/2.0`, carrier.port, 'info', [
        ...[...routes].reverse().map((r) => `Route: ${r}`),
        from,
        `To: ${toTagged}`,
        `Call-ID: ${callId}`,
        'CSeq: 2 INFO',
      ]),
      kamailio.port,
    );
    const info = await node.next('INFO');
    expect(headers(info, 'Route')).toEqual([]);
    expect(headers(info, 'Call-ID')).toEqual([callId]);
  });
});
