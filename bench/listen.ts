// Listen in (issue 54): Asterisk's CPU per call with and without one listener, on the real
// Asterisk 20.17.0. Each call is a SIPp caller held for HOLD_MS; with a listener, the owner's
// listen line (POST /api/live/calls/:id/listen, the lt- endpoint through the core's proxy, a
// snoop bridged to it) joins as soon as the call is in progress. Asterisk's process CPU time is
// read from /proc/<pid>/stat (utime + stime) before the call and after its row is final.
// Prints figures, nothing passes or fails. Run: npx tsx bench/listen.ts [calls=5]
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil } from '../test/helpers/wait.js';
import { realPbxAvailability, startRealPbx } from '../test/pbx-real/harness.js';
import { ownerWithLine } from '../test/call-my-line/owner-line.js';
import { connect, SipSocket, type Credentials } from '../test/call-my-line/sip-ws-client.js';
import { machine, percentile } from './lib/report.js';

const N = Number(process.argv[2] ?? 5);
const HOLD_MS = 5000;
/** Linux's USER_HZ: /proc's CPU times are in these ticks. */
const TICK_MS = 10;
if (!realPbxAvailability().ok) process.exit(0);

const h = await startRealPbx({ rateLimits: { liveControlPerOwner: { max: 10_000, windowMs: 60 * 60_000 } } });
const pid = h.asterisk.pid;
if (!pid) throw new Error('Asterisk has no process id');
const cpuMs = () => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ": state is field 0, utime field 11, stime field 12.
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};
const owner = await ownerWithLine(h.server, '+447700900831');
console.log(`listen: ${N} calls each way, one after another, each held ${HOLD_MS} ms, Asterisk CPU per call, on ${machine()}`);

async function oneCall(listen: boolean): Promise<number> {
  const before = cpuMs();
  const caller = await h.call(owner.did);
  const row = await waitUntil(async () => {
    const r = (await h.rows(owner.did)).find((c) => !c.endedAt && c.channelId);
    if (!r) throw new Error('no call in progress yet');
    return r;
  }, 30_000);
  let sip: SipSocket | undefined;
  if (listen) {
    const res = await owner.client.post<Credentials>(`/api/live/calls/${row.id}/listen`);
    if (res.status !== 200) throw new Error(`listen answered ${res.status}: ${res.text}`);
    const s = await connect(h.server.url, res.body.wsPath, { origin: h.server.url, cookie: owner.client.cookie });
    if (!(s instanceof SipSocket)) throw new Error(`upgrade refused with ${s.refused}`);
    sip = s;
    const leg = await s.invite(res.body, res.body.sipUri);
    if (leg.status !== 200) throw new Error(`the listen line answered ${leg.status}`);
  }
  await sleep(HOLD_MS);
  await caller.hangUp();
  await waitUntil(async () => {
    const r = (await h.rows(owner.did)).find((c) => c.id === row.id);
    if (!r?.endedAt) throw new Error('not finished yet');
  }, 60_000);
  sip?.close();
  return cpuMs() - before;
}

const results: Record<string, number[]> = { 'without a listener': [], 'with one listener': [] };
for (let i = 0; i < N; i++) {
  results['without a listener']!.push(await oneCall(false));
  results['with one listener']!.push(await oneCall(true));
}
for (const [label, values] of Object.entries(results)) {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`  ${label.padEnd(20)} Asterisk CPU per call: mean ${mean.toFixed(0)} ms, p50 ${percentile(values, 50).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`);
}
await h.close();
