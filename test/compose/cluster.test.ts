// docker-compose.yml's `cluster` profile as operators run it (docs/cluster.md, "Compose profile
// `cluster`"): Kamailio, PostgreSQL and two nodes (asterisk + core, asterisk-b + core-b) built
// from the project's Dockerfiles on the compose test's engine (the one-box stack's images, from
// the build cache), brought up with the profile named in .env, and called through Kamailio by
// SIPp. Only Ollama and whisper are replaced (docker-compose.test.yml). Run by
// `npm run test:compose` with stack.test.ts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { tablesOf } from '../../core/db/schema.js';
import { notificationBody } from '../../core/notify/message.js';
import { dispatcherNodes } from '../cluster/kamailio-instance.js';
import type { ApiClient } from '../helpers/client.js';
import { adminHealth } from '../helpers/health.js';
import { waitUntil } from '../helpers/wait.js';
import { speech } from '../pbx-real/audio.js';
import { heardBeep } from '../pbx-real/harness.js';
import { freeSipPort, freeTcpPort } from '../pbx-real/ports.js';
import { placeCalls } from '../pbx-real/sipp.js';
import { DID, prepareStack, recordFigures, signUpOwner, type Stack } from './stack.js';

const SERVICES = ['kamailio', 'postgres', 'asterisk', 'core', 'asterisk-b', 'core-b', 'ollama', 'whisper'];
/** Each node's core and the loopback address its Asterisk listens on (docker-compose.test.yml). */
const NODES = [
  { name: 'node-a', core: 'core', asterisk: '127.0.0.2' },
  { name: 'node-b', core: 'core-b', asterisk: '127.0.0.3' },
] as const;
const OWNER_PHONE = '+447700900123';
const figures: Record<string, string | number> = {};

let stack: Stack;
let owner: ApiClient;
let database: DatabaseHandle;
let kamailioPort: number;
const consoleOf: Record<string, string> = {};

async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await run();
  figures[name] = Math.round((performance.now() - t0) / 100) / 10;
  return out;
}

describe('docker compose, profile cluster: Kamailio in front of two nodes on one PostgreSQL, built, booted and called', () => {
  beforeAll(async () => {
    kamailioPort = await freeSipPort();
    const postgresPort = await freeTcpPort();
    const consoleB = await freeTcpPort();
    const password = crypto.randomBytes(16).toString('hex');
    // The .env lines docs/cluster.md gives an operator, with the test's loopback addresses.
    stack = await prepareStack(inject('dockerHost'), {
      name: 'cluster',
      extraEnv: {
        COMPOSE_PROFILES: 'cluster',
        POSTGRES_PASSWORD: password,
        DATABASE_URL: `postgres://appliance:${password}@127.0.0.1:${postgresPort}/appliance`,
        NODE_NAME: NODES[0].name,
        NODE_B_NAME: NODES[1].name,
        // Each node's trunk is Kamailio, which calls them from 127.0.0.1.
        SIP_UKDID_MATCH: '127.0.0.1',
        TEST_NODE_A_ADDRESS: NODES[0].asterisk,
        TEST_NODE_B_ADDRESS: NODES[1].asterisk,
        TEST_KAMAILIO_PORT: String(kamailioPort),
        TEST_POSTGRES_PORT: String(postgresPort),
        TEST_CONSOLE_B_PORT: String(consoleB),
      },
    });
    consoleOf.core = stack.consoleUrl;
    consoleOf['core-b'] = `http://127.0.0.1:${consoleB}`;
    // Every image of the profile; asterisk-b and core-b are asterisk's and core's, from the cache.
    await timed('cluster build s', () => stack.compose(['build']));
    await timed('cluster up until healthy s', async () => {
      await stack.compose(['up', '-d']);
      await stack.allHealthy(SERVICES);
    });
    const mb = (service: string) => {
      const image = stack.docker(['inspect', '--format', '{{.Image}}', stack.container(service)]).trim();
      return Math.round(Number(stack.docker(['image', 'inspect', '--format', '{{.Size}}', image]).trim()) / 1e6);
    };
    figures['kamailio image MB'] = mb('kamailio');
    figures['postgres image MB'] = mb('postgres');
    owner = await signUpOwner(stack, 'Cluster Plumbing', NODES.map((n) => n.core));
    // The test reads the rows where the cores write them: the cluster's PostgreSQL.
    database = await openAppDatabase({ kind: 'postgres', url: stack.env.DATABASE_URL! }, { info: () => {}, warn: () => {} });
  }, 60 * 60_000);

  afterAll(async () => {
    recordFigures(figures);
    await database?.close();
    await stack?.close('compose-cluster-logs.txt');
  }, 10 * 60_000);

  it('every service is healthy, each core has its own Asterisk linked, Kamailio sends to both nodes, nothing runs as root', async () => {
    for (const s of SERVICES) expect(stack.health(s), s).toBe('healthy');
    for (const node of NODES) {
      // The PBX link's report is for an administrator (signed out, /healthz says only ok).
      const body = await (await adminHealth(consoleOf[node.core]!))();
      expect(body.status, node.core).toBe('ok');
      expect(body.components.pbx, node.core).toMatchObject({ ok: true });
    }
    // Both nodes answered Kamailio's OPTIONS probes: A(ctive), P(robing).
    await waitUntil(() => {
      const listed = dispatcherNodes(stack.exec('kamailio', ['kamcmd', '-s', 'unix:/run/kamailio/kamailio_ctl', 'dispatcher.list']));
      expect(listed.map((n) => `${n.uri} ${n.flags}`).sort()).toEqual(NODES.map((n) => `sip:${n.asterisk}:5060 AP`));
    }, 60_000, 500);
    expect(stack.exec('kamailio', ['id', '-un']).trim()).toBe('kamailio');
    expect(stack.exec('postgres', ['id', '-un']).trim()).toBe('postgres');
    expect(stack.exec('core-b', ['id', '-u']).trim()).toBe('1000');
    for (const s of SERVICES) {
      expect(stack.docker(['inspect', '--format', '{{.HostConfig.Privileged}}', stack.container(s)]).trim(), s).toBe('false');
    }
  });

  it('voicemail calls through Kamailio land on both nodes: one row in PostgreSQL, one recording and one text each; either core serves the other node’s recordings', async () => {
    const specs = Array.from({ length: 6 }, (_, i) => ({ did: DID, from: `+4477009006${i}0` }));
    const batch = await timed('cluster calls s', async () => {
      const b = await placeCalls(kamailioPort, specs, { ratePerSecond: 1 });
      await Promise.all(
        b.calls.map(async (call, i) => {
          await heardBeep(call, 120_000);
          await call.media.say(speech(`This is caller ${i + 1} on the cluster. Please ring me back about the radiator.`));
          await call.hangUp();
        }),
      );
      return await b.done;
    });
    expect(batch.exitCode, batch.errors).toBe(0);
    expect(batch.signalling.map((s) => s.final)).toEqual(specs.map(() => 200));

    const rows = await waitUntil(async () => {
      const { calls } = tablesOf(database.db);
      const r = await database.db.select().from(calls).orderBy(calls.id);
      const waiting = r.filter((x) => !x.notificationSent).length;
      if (r.length < specs.length || waiting > 0) throw new Error(`${r.length} rows, ${waiting} not texted yet`);
      return r;
    }, 240_000, 1000);
    // One row per call, each to the DID its caller rang, finished as a voicemail.
    expect(rows.map((r) => `${r.fromNumber} ${r.toNumber} ${r.status}`).sort()).toEqual(specs.map((s) => `${s.from} ${s.did} voicemail`).sort());
    // Spread over both nodes, each node's calls under its own channel ids.
    const perNode = new Map<string, number>();
    for (const r of rows) perNode.set(r.node, (perNode.get(r.node) ?? 0) + 1);
    console.log(`cluster calls per node: ${[...perNode].map(([n, k]) => `${n} ${k}`).join(', ')}`);
    expect([...perNode.keys()].sort()).toEqual(NODES.map((n) => n.name));
    for (const r of rows) expect(r.channelId!.startsWith(`${r.node}-`), r.channelId!).toBe(true);

    // One recording per call in the shared volume, the same folder from both cores.
    const expected = rows.map((r) => `call-${r.id}.wav`).sort();
    expect(rows.map((r) => r.recordingFile).sort()).toEqual(expected);
    for (const node of NODES) {
      const listing = stack.exec(node.core, ['sh', '-c', 'cd /data/recordings && ls']).split('\n').filter(Boolean).sort();
      expect(listing, node.core).toEqual(expected);
    }

    // One text per call: the texts both cores wrote are exactly the texts due, once each.
    const texts = NODES.flatMap((n) => stack.outboxTexts(n.core)).filter((m) => m.to === OWNER_PHONE && !/confirmation code is/.test(m.body));
    expect(texts.map((m) => m.body).sort()).toEqual(rows.map((r) => notificationBody(r)).sort());

    // Either core serves a recording the other node took, byte for byte the shared file.
    for (const node of NODES) {
      const other = rows.find((r) => r.node !== node.name)!;
      const res = await fetch(`${consoleOf[node.core]}/api/call-logs/${other.id}/recording`, { headers: { cookie: owner.cookie! } });
      expect(res.status, `${node.core} serving call ${other.id} of ${other.node}`).toBe(200);
      const served = crypto.createHash('sha256').update(Buffer.from(await res.arrayBuffer())).digest('hex');
      const stored = stack.exec(node.core, ['sha256sum', `/data/recordings/${other.recordingFile}`]).split(' ')[0];
      expect(served).toBe(stored);
    }
  });
});
