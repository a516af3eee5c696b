// Where a process's CPU went, from a V8 CPU profile (node --cpu-prof; bench/pbx-real-knee.ts's
// BENCH_KNEE_CORE_NODE_OPTIONS): self time summed by function and by package or project file,
// per call when the number of calls is given. Figures only.
// Start-up (module loading, migrations) is left out by BENCH_PROFILE_SKIP_S seconds from the profile's start
// (default 0); a line of busy time per 10 s shows where it ends.
// Run: npx tsx bench/cpu-profile-top.ts <file.cpuprofile> [calls] [rows=20]
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, callsArg, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/cpu-profile-top.ts <file.cpuprofile> [calls] [rows]');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const calls = Number(callsArg ?? 0);
const rows = Number(rowsArg ?? 20);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const skipUs = Number(process.env.BENCH_PROFILE_SKIP_S ?? 0) * 1e6;

/** A file as a reader knows it: the package under node_modules, else the project path. */
function place(url: string): string {
  if (!url) return '(native / V8)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return url;
  const project = /\/(core|pbx|models|dialogue|contract)\/.+$/.exec(url);
  return project ? project[0].slice(1) : url;
}

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
let idle = 0;
let total = 0;
let at = 0;
const busyPer10s: number[] = [];
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  at += us;
  const frame = byId.get(id)!.callFrame;
  if (frame.functionName === '(idle)') return void (idle += us);
  const bucket = Math.floor(at / 10e6);
  busyPer10s[bucket] = (busyPer10s[bucket] ?? 0) + us;
  if (at < skipUs) return;
  total += us;
  const fn = `${frame.functionName || '(anonymous)'} ${place(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  byPlace.set(place(frame.url), (byPlace.get(place(frame.url)) ?? 0) + us);
});

const ms = (us: number) => (calls ? `${(us / 1000 / calls).toFixed(2)} ms/call` : `${(us / 1000).toFixed(0)} ms`);
const pct = (us: number) => `${((100 * us) / total).toFixed(1)} %`;
console.log(`${file}: ${(total / 1e6).toFixed(2)} s busy, ${(idle / 1e6).toFixed(1)} s idle${calls ? `, ${calls} calls: ${(total / 1000 / calls).toFixed(1)} ms/call` : ''}`);
console.log(`busy ms per 10 s from the start: ${Array.from(busyPer10s, (v) => Math.round((v ?? 0) / 1000)).join(' ')}${skipUs ? `; the first ${skipUs / 1e6} s left out` : ''}`);
console.log('\nself time by package / file');
for (const [k, v] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`  ${pct(v).padStart(7)}  ${ms(v).padStart(14)}  ${k}`);
console.log('\nself time by function');
for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`  ${pct(v).padStart(7)}  ${ms(v).padStart(14)}  ${k}`);
