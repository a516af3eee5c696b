// 100 simultaneous voicemail calls through the core's ARI client (pbx/ari/) and the ARI simulator.
// Prints figures (not pass/fail): StasisStart → answer request latency, and whether every
// call row was written and every message stored.
// Run: npx tsx bench/calls-100.ts [calls=100] [msBetweenArrivals=0]
import dc from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { tablesOf } from '../core/db/schema.js';
import { createPromptCache, createTextToSpeech } from '../models/tts/index.js';
import { THANK_YOU } from '../dialogue/spoken/call-lines.js';
import { businessGreeting } from '../dialogue/spoken/greeting.js';
import { tsWorker } from '../models/threads/module-worker.js';
import { callerSpeech } from '../test/ari-sim/caller-audio.js';
import type { CallerScript } from '../test/ari-sim/caller-script.js';
import { startTestServer } from '../test/helpers/server.js';
import { report as benchRow } from './lib/report.js';

const N = Number(process.argv[2] ?? 100);
/** Real ms between arrivals: 0 = all in one burst. Every call still overlaps all the others (each lasts ~2 s). */
const SPREAD_MS = Number(process.argv[3] ?? 0);
const APP = 'call-answering';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// When the core's answer request for each channel was flushed to a socket, on the wall
// clock shared with the simulator's thread.
const answerSent = new Map<string, number>();
const wallNow = () => performance.timeOrigin + performance.now();
dc.subscribe('http.client.request.start', (message) => {
  const request = (message as { request: ClientRequest }).request;
  const channel = /\/ari\/channels\/([^/?]+)\/answer$/.exec(request.path)?.[1];
  if (channel) request.once('finish', () => answerSent.set(decodeURIComponent(channel), wallNow()));
});

// The simulator runs in its own thread: its CPU is Asterisk's, not the core's.
const worker = tsWorker(new URL('./sim-worker.ts', import.meta.url));
let seq = 0;
const pending = new Map<number, (v: any) => void>();
const doneCalls = new Set<string>();
worker.on('message', (m: { id?: number; value?: unknown; done?: string }) => {
  if (m.done) doneCalls.add(m.done);
  else pending.get(m.id!)?.(m.value), pending.delete(m.id!);
});
const ask = <T>(cmd: string, args?: unknown) => new Promise<T>((resolve) => (pending.set(++seq, resolve), worker.postMessage({ id: seq, cmd, args })));
const placeCall = (args: { app: string; from: string; did: string; script: CallerScript }) => ask<string>('call', args);

const sim = await ask<{ url: string; credentials: { username: string; password: string } }>('start', { timeScale: 10 });
let hooks = 0;
const server = await startTestServer({
  env: { ARI_URL: sim.url, ARI_USERNAME: sim.credentials.username, ARI_PASSWORD: sim.credentials.password, ARI_APP: APP, TTS_ENGINE: 'espeak-ng' },
  setup: async (services) => {
    await ask('mount', { key: 'appliance', dir: path.join(services.config.dataDir, 'prompts') });
    services.hooks.callFinished.push(() => hooks++);
  },
  drainMs: 5000,
  pbx: (services) => ({ prompts: createPromptCache({ dataDir: services.config.dataDir, tts: createTextToSpeech(services.config.tts) }) }),
});const { calls, phoneNumbers, users } = tablesOf(server.database.db);

const pbx = server.appliance.pbx!;
const prompts = createPromptCache({ dataDir: server.dataDir, tts: createTextToSpeech(server.config.tts) });
// When the core took each StasisStart off the events socket.
const stasisStartReceived = new Map<string, number>();
const onEvent = pbx.app.onEvent.bind(pbx.app);
pbx.app.onEvent = (e) => {
  if (e.type === 'StasisStart' && e.channel) stasisStartReceived.set(e.channel.id, wallNow());
  onEvent(e);
};
await until(() => pbx.link.state === 'connected', 15_000, 'the PBX to connect');

const dids: string[] = [];
for (let i = 0; i < 10; i++) {
  const user = (await server.database.db.insert(users).values({ email: `b${i}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', businessName: `Bench Business ${i}` }).returning())[0]!;
  const did = `+4477009${String(20000 + i)}`;
  await server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id });
  dids.push(did);
}
// Steady state: greetings are synthesised once per business, long before its 100th call.
for (let i = 0; i < 10; i++) await prompts.get(businessGreeting(`Bench Business ${i}`), 'female');
await prompts.get(THANK_YOU, 'female');
const say = callerSpeech('Hello, this is a benchmark caller leaving a short message about an appointment.');

// Memory per active call: the core's heap while all calls are up, over the idle baseline.
global.gc?.();
const baseline = process.memoryUsage().heapUsed;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 50);
const started = performance.now();
const placed: Array<Promise<string>> = [];
for (let i = 0; i < N; i++) {
  placed.push(placeCall({ app: APP, from: `+4477009${String(30000 + i)}`, did: dids[i % dids.length]!, script: { onRecord: [{ say }, { press: '#' }] } }));
  if (SPREAD_MS > 0) await new Promise((r) => setTimeout(r, SPREAD_MS));
}
const ids = await Promise.all(placed);
await until(() => ids.every((id) => doneCalls.has(id)), 120_000, 'every caller to hang up');
await until(async () => (await server.database.db.select().from(calls).where(inArray(calls.channelId, ids))).filter((r) => r.endedAt).length === N, 60_000, 'every call row');
const wall = performance.now() - started;
clearInterval(sampler);

const report = await ask<{ stasisStart: Record<string, number>; answers: Array<{ path: string; at: number }>; violations: number; leftOnAsterisk: number }>('report');
const sorted = (xs: number[]) => xs.filter((ms) => !Number.isNaN(ms)).sort((a, b) => a - b);
// Sent: the core's own work (event delivery, parsing, the answer request); received: plus
// the simulator's thread taking the request off its socket, which in a burst queues behind
// its own work for the other 99 calls (real Asterisk serves HTTP on several threads).
const coreLatencies = sorted(ids.map((id) => (answerSent.get(id) ?? NaN) - stasisStartReceived.get(id)!));
const deliveryLatencies = sorted(ids.map((id) => stasisStartReceived.get(id)! - report.stasisStart[id]!));
const latencies = sorted(
  ids.map((id) => {
    const answer = report.answers.find((r) => r.path === `/ari/channels/${id}/answer`);
    return answer ? answer.at - report.stasisStart[id]! : NaN;
  }),
);
const rows = await server.database.db.select().from(calls).where(inArray(calls.channelId, ids));
const stored = rows.filter((r) => r.recordingFile && fs.existsSync(path.join(server.dataDir, 'recordings', r.recordingFile))).length;

console.log(`calls placed:                 ${N} (${SPREAD_MS ? `one every ${SPREAD_MS} ms` : 'all in one burst'}; prompts cached; simulator in its own thread)`);
console.log(`answer requests sent / seen:  ${coreLatencies.length} / ${latencies.length}`);
const line = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(1)}, p95 ${percentile(xs, 95).toFixed(1)}, max ${xs[xs.length - 1]!.toFixed(1)} ms`;
console.log(`StasisStart sent → received by the core:     ${line(deliveryLatencies)}`);
console.log(`StasisStart received → answer on the wire:   ${line(coreLatencies)}`);
console.log(`StasisStart → answer received by simulator:  ${line(latencies)}`);
console.log(`call rows final:              ${rows.filter((r) => r.endedAt).length}/${N} (voicemail ${rows.filter((r) => r.status === 'voicemail').length})`);
console.log(`recordings stored locally:    ${stored}/${N}; left on Asterisk: ${report.leftOnAsterisk}`);
console.log(`callFinished hooks fired:     ${hooks}`);
console.log(`ARI violations:               ${report.violations}`);
console.log(`wall time (timeScale 10):     ${(wall / 1000).toFixed(1)} s`);
console.log(`machine load (1/5 min):       ${os.loadavg().slice(0, 2).map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores`);

const mode = SPREAD_MS ? `${N} calls ${SPREAD_MS} ms apart` : `${N} calls at once`;
const pair = (xs: number[]) => `${percentile(xs, 50).toFixed(1)} / ${percentile(xs, 95).toFixed(1)} ms`;
benchRow({ bench: 'calls', measure: `StasisStart received → answer request on the wire, p50 / p95 (${mode})`, value: pair(coreLatencies), budget: 'p95 < 20 ms' });
benchRow({ bench: 'calls', measure: `StasisStart sent → answer received, both in the simulator, p50 / p95 (${mode})`, value: pair(latencies) });
benchRow({ bench: 'calls', measure: `rows final, recordings stored, hooks fired (${mode})`, value: `${rows.filter((r) => r.endedAt).length} / ${stored} / ${hooks} of ${N}` });
benchRow({ bench: 'calls', measure: 'core heap per active call (peak over idle)', value: `${((peak - baseline) / N / 1024).toFixed(0)} KB` });
console.log(`core heap per active call:    ${((peak - baseline) / N / 1024).toFixed(0)} KB (peak ${(peak / 2 ** 20).toFixed(0)} MiB)`);

await server.close();
await ask('stop');
await worker.terminate();
process.exit(0);

