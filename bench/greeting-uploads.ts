// /healthz latency with and without six owners uploading 5 MB greeting recordings at once
// (issue 53 item 5): the conversion of a recording (mix-down, resampling, the silence check)
// must not hold the event loop that runs the calls. Prints p50/p95 side by side; asserts nothing.
// The probes and uploads run in a worker thread of their own, so the client's work is not
// counted against the server's event loop. BENCH_SECONDS sets each phase's length (default 15).
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { buildWavHeader } from '../models/audio/wav-header.js';
import { activeCustomer } from '../test/helpers/accounts.js';
import { startTestServer } from '../test/helpers/server.js';
import { machine, percentile, report } from './lib/report.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const UPLOADERS = 6;
const unlimited = { max: 1_000_000, windowMs: 60_000 };

/** 27 s of a 440 Hz tone at 48 kHz stereo 16-bit: 5.2 MB, the largest a browser records. */
function recording(): Buffer {
  const rate = 48000;
  const frames = rate * 27;
  const data = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
    data.writeInt16LE(v, i * 4);
    data.writeInt16LE(v, i * 4 + 2);
  }
  return Buffer.concat([buildWavHeader({ sampleRate: rate, channels: 2, bitsPerSample: 16, dataBytes: data.length }), data]);
}

// The client: probes /healthz one after another for `ms`, while `cookies.length` owners each
// upload the recording again and again. Plain JavaScript, so the thread needs no loader.
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, cookies, wav, ms } = workerData;
(async () => {
  const until = Date.now() + ms;
  let uploads = 0, failed = 0;
  const uploader = async (cookie) => {
    while (Date.now() < until) {
      const res = await fetch(url + '/api/agent/greeting-recordings/en', { method: 'PUT', headers: { 'content-type': 'audio/wav', cookie }, body: wav });
      await res.arrayBuffer();
      if (res.status === 200) uploads++; else failed++;
    }
  };
  const probes = [];
  const probe = async () => {
    while (Date.now() < until) {
      const t = performance.now();
      const res = await fetch(url + '/healthz');
      await res.arrayBuffer();
      probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all([probe(), ...cookies.map(uploader)]);
  parentPort.postMessage({ probes, uploads, failed });
})();
`;

interface Phase {
  probes: number[];
  uploads: number;
  failed: number;
  /** The server's event loop delay (this process's), p99 and max in ms. */
  loopP99?: number;
  loopMax?: number;
  /** CPU time of the server's main thread during the phase. */
  mainCpuMs?: number;
}

/** CPU time the main thread (the server's event loop; its thread id is the pid) has used, in ms (Linux /proc). */
function mainThreadCpuMs(): number {
  const fields = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function phase(url: string, cookies: string[], wav: Buffer): Promise<Phase> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpuBefore = mainThreadCpuMs();
  const result = await new Promise<Phase>((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: { url, cookies, wav: new Uint8Array(wav), ms: SECONDS * 1000 } });
    worker.once('message', (m: Phase) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  loop.disable();
  return { ...result, loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6, mainCpuMs: mainThreadCpuMs() - cpuBefore };
}

const server = await startTestServer({ rateLimits: { greetingUploadsPerOwner: unlimited, greetingUploadsPerBox: unlimited } });
// One after another: the administrator's sign-ins that approve them would be throttled at once.
const cookies: string[] = [];
for (let i = 0; i < UPLOADERS; i++) cookies.push((await activeCustomer(server)).client.cookie!);
const wav = recording();
// Warm-up: the first conversion loads what it needs.
await phase(server.url, cookies.slice(0, 1), wav);

const quiet = await phase(server.url, [], wav);
const busy = await phase(server.url, cookies, wav);
await server.close();

const ms = (v: number) => `${v.toFixed(1)} ms`;
console.log(`\n/healthz while ${UPLOADERS} owners upload a ${(wav.length / 1e6).toFixed(1)} MB WAV again and again (${SECONDS} s each; ${machine()})`);
console.log('| | no uploads | six concurrent uploads |\n|---|---|---|');
console.log(`| /healthz p50 | ${ms(percentile(quiet.probes, 50))} | ${ms(percentile(busy.probes, 50))} |`);
console.log(`| /healthz p95 | ${ms(percentile(quiet.probes, 95))} | ${ms(percentile(busy.probes, 95))} |`);
console.log(`| /healthz max | ${ms(Math.max(...quiet.probes))} | ${ms(Math.max(...busy.probes))} |`);
console.log(`| server event loop delay p99 | ${ms(quiet.loopP99!)} | ${ms(busy.loopP99!)} |`);
console.log(`| server event loop delay max | ${ms(quiet.loopMax!)} | ${ms(busy.loopMax!)} |`);
console.log(`| server main thread CPU | ${ms(quiet.mainCpuMs!)} | ${ms(busy.mainCpuMs!)} (${ms((busy.mainCpuMs! - quiet.mainCpuMs!) / Math.max(1, busy.uploads + busy.failed))} an upload) |`);
console.log(`| probes | ${quiet.probes.length} | ${busy.probes.length} |`);
console.log(`| uploads converted (refused) | – | ${busy.uploads} (${busy.failed}) |`);
report({ bench: 'greeting uploads', measure: '/healthz p95, no uploads → six 5 MB uploads', value: `${ms(percentile(quiet.probes, 95))} → ${ms(percentile(busy.probes, 95))}` });
