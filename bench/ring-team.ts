// "Ring the team first" on a real Asterisk 20.17.0 (issue 58), timed where a caller's wait
// starts: the caller's INVITE reaching Asterisk (the channel's creation time, the call row's
// created_at) → each staff phone's INVITE arriving at the phone (the SIPp owner phone, the
// trunk's far end), for a business that rings two staff phones at once. One phone rings until
// CANCELled, the other answers; the caller is put through and hangs up. Then, for a few calls
// nobody answers, the team given up on (the core's log line) → the first sound of the
// voicemail greeting at the caller, against the holding phrase's bound (the agent's
// AGENT_HOLD_AFTER_MS): the silence a caller hears between the ringing and the box's answer.
// Prints figures only. Run: npx tsx bench/ring-team.ts [calls=20] [unanswered=5]
import { teamBusiness } from '../test/pbx-real/staff-phones.js';
import { realPbxAvailability, startRealPbx } from '../test/pbx-real/harness.js';
import { waitUntil } from '../test/helpers/wait.js';
import { isRingback } from '../test/pbx-real/audio.js';
import { machine, percentile, report } from './lib/report.js';

const N = Number(process.argv[2] ?? 20);
const UNANSWERED = Number(process.argv[3] ?? 5);
if (!realPbxAvailability().ok) process.exit(0);

console.log(`ring-team: ${N} calls one after another, two staff phones rung at once, on ${machine()}`);
const h = await startRealPbx({ ownerPhone: true });
const firstMs: number[] = [];
const allMs: number[] = [];
for (let i = 0; i < N; i++) {
  const { did, staff } = await teamBusiness(h, { ringFirst: 'all', ringSeconds: 30, staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'answers' }] });
  const call = await h.call(did);
  const phones = await Promise.all(staff.map((s) => h.ownerPhone!.nextCall(s.phone)));
  const row = await waitUntil(async () => (await h.rows(did))[0] ?? Promise.reject(new Error('no row yet')), 10_000, 20);
  // The row's created_at is the channel's creation on Asterisk's clock, the same machine's as the phone's file times.
  const invitedAt = row.createdAt.getTime() - performance.timeOrigin;
  const rang = phones.map((p) => p.invitedAt - invitedAt);
  firstMs.push(Math.min(...rang));
  allMs.push(Math.max(...rang));
  await waitUntil(() => (h.ownerPhone!.wasCancelled(staff[0]!.phone) ? true : Promise.reject(new Error('still ringing'))), 20_000, 20);
  await call.hangUp();
  await call.done;
  await h.finishedRow(did);
}
const gapMs: number[] = [];
for (let i = 0; i < UNANSWERED; i++) {
  const { did, staff } = await teamBusiness(h, { ringFirst: 'all', ringSeconds: 10, staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'rings' }] });
  const call = await h.call(did);
  for (const s of staff) await h.ownerPhone!.nextCall(s.phone);
  const gaveUp = await waitUntil(async () => {
    const callId = (await h.rows(did))[0]?.id;
    const line = h.coreLog.find((l) => l.callId === callId && l.msg === 'ring-first: nobody in the team answered');
    return line ? (line.time as number) - performance.timeOrigin : Promise.reject(new Error('still ringing'));
  }, 60_000, 20);
  const greetedAt = await waitUntil(() => call.media.heardFrames.find((f) => f.at >= gaveUp && f.level > 250 && !isRingback(f.samples))?.at ?? Promise.reject(new Error('no greeting yet')), 30_000, 10);
  gapMs.push(greetedAt - gaveUp);
  await call.hangUp();
  await call.done;
  await h.finishedRow(did);
}
const f = (v: number) => `${v.toFixed(0)} ms`;
const p = (xs: number[]) => `${f(percentile(xs, 50))} / ${f(percentile(xs, 95))}`;
report({ bench: 'ring-team', measure: `caller's INVITE → first staff phone ringing, p50 / p95 (${N} calls)`, value: p(firstMs), budget: '< 1 s' });
report({ bench: 'ring-team', measure: "caller's INVITE → both staff phones ringing, p50 / p95", value: p(allMs), budget: '< 1 s' });
report({ bench: 'ring-team', measure: `nobody answered: team given up → greeting heard, p50 / p95 (${UNANSWERED} calls)`, value: p(gapMs), budget: `< ${h.server.config.agentStall.holdMs} ms (the holding phrase's bound)` });
await h.close();
process.exit(0);
