// The agent's call-backs (issue 56) on a real Asterisk 20.17.0, timed at the called party's
// phone: the SIPp phone at the trunk's far end (test/pbx-real/owner-phone.ts), stamped by SIPp's
// own message log. N call-backs one after another, each handed to the PBX's dialler (the port
// the core's sweep calls, core/ports/call-back-dialler.ts):
//   the dialler asked → the INVITE at the phone,
//   the phone's answer (its 200 OK) → the first audio of the opening at the phone.
// The phone answers at once and a person says "Hello?" (again until the box speaks: the bridge
// drops audio before it carries media), so the second figure holds the "Hello?" itself and the
// box's half second of listening for the quiet after it (pbx/flows/call-back/machine-rule.ts):
// what the person waits. Where one "Hello?" was enough, the end of it → the opening's first
// audio is printed too: the box's part after the person spoke.
// As the reference, in the same run, an inbound agent call after each call-back: its answer
// (the 200 OK at the caller's SIPp) → the first audio of its greeting.
// One call of each kind is made first and not counted, so the prompts are cached, as on a box
// that has been running. Engine doubles answer at once; TTS is real espeak-ng.
// Prints figures, nothing passes or fails.
// Run: npx tsx bench/call-back-first-words.ts [--calls 10]
import { parseArgs } from 'node:util';
import { waitUntil } from '../test/helpers/wait.js';
import { trailingQuietMs } from '../test/pbx-real/agent-caller.js';
import { speech } from '../test/pbx-real/audio.js';
import { untilSpokenTo } from '../test/pbx-real/called-party.js';
import { realPbxAvailability, startRealPbx } from '../test/pbx-real/harness.js';
import { machine, percentile, report } from './lib/report.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '10' } } });
const N = Number(values.calls);
// The phone has 64 audio lines and gives each to one call only (owner-phone.ts).
if (!Number.isInteger(N) || N < 1 || N > 60) throw new Error(`--calls must be a whole number from 1 to 60, not ${values.calls}`);
if (!realPbxAvailability().ok) process.exit(0);

const BUSINESS = 'Hale Plumbing';
console.log(`call-back-first-words: ${N} call-backs and ${N} inbound agent calls, one at a time, on ${machine()}; TTS espeak-ng`);
// Three conversation slots: a call-back never takes the last one (inbound callers first).
const h = await startRealPbx({ ownerPhone: true, agent: true, env: { OLLAMA_SLOTS: '3', WHISPER_SLOTS: '1' } });
h.whisper.defaultTranscript = 'Hello?';
const hello = speech('Hello?');
const rungBack = await h.business({ businessName: BUSINESS });
const inbound = await h.business({ businessName: BUSINESS, aiMode: 'agent', knowledgeBase: 'Q: Hours?\nA: Eight till six.' });
let callBackId = 0;

/** One call-back, placed through the port and answered by a person: its figures. */
async function callBack(): Promise<{ toInviteMs: number; answerToOpeningMs: number; helloToOpeningMs: number | undefined }> {
  const to = h.ownerPhone!.number('answers');
  const askedAt = performance.now();
  const result = h.pbx.callBackDialler!({ callBackId: ++callBackId, userId: rungBack.userId, to, from: rungBack.did, businessName: BUSINESS, firstCallSummary: 'A leak under the kitchen sink.', firstCallId: null });
  const call = await h.ownerPhone!.nextCall(to, 60_000);
  const heard = await untilSpokenTo(call, hello);
  const { invitedAt, answeredAt } = await h.ownerPhone!.signalling(call.callId);
  // Said once, the phone's last frame sent is that "Hello?"'s (espeak-ng's quiet after the word aside).
  const once = call.media.spokeAt.filter((t) => t < heard).length === 1;
  const helloEnded = call.media.sentAt - trailingQuietMs(hello);
  await call.hangUp();
  // Resolves when the call-back has ended: the next one starts on a quiet box.
  const r = await result;
  if (!r.placed || r.outcome !== 'answered') throw new Error(`call-back ${callBackId} ended ${JSON.stringify(r)}`);
  return { toInviteMs: invitedAt - askedAt, answerToOpeningMs: heard - answeredAt, helloToOpeningMs: once ? heard - helloEnded : undefined };
}

/** One inbound agent call: its answer → the first audio of the greeting, at the caller. */
async function inboundCall(): Promise<number> {
  const call = await h.call(inbound.did);
  const [answeredAt, heard] = await waitUntil(() => {
    const answered = call.answeredAt;
    const first = answered === undefined ? undefined : call.media.firstSoundAfter(answered);
    if (answered === undefined || first === undefined) throw new Error('the greeting has not been heard yet');
    return [answered, first];
  }, 60_000, 5);
  await call.hangUp();
  await call.done;
  return heard - answeredAt;
}

await callBack();
await inboundCall();
const toInviteMs: number[] = [];
const answerToOpeningMs: number[] = [];
const helloToOpeningMs: number[] = [];
const greetingMs: number[] = [];
for (let i = 0; i < N; i++) {
  const c = await callBack();
  toInviteMs.push(c.toInviteMs);
  answerToOpeningMs.push(c.answerToOpeningMs);
  if (c.helloToOpeningMs !== undefined) helloToOpeningMs.push(c.helloToOpeningMs);
  greetingMs.push(await inboundCall());
}

const f = (v: number) => `${v.toFixed(0)} ms`;
const spread = (xs: number[]) => (xs.length ? `${f(percentile(xs, 50))} / ${f(percentile(xs, 95))} / ${f(Math.max(...xs))}` : '-');
const rows: Array<[string, number[]]> = [
  [`call-back: the dialler asked → INVITE at the phone (${N} call-backs)`, toInviteMs],
  [`call-back: the phone's answer → first audio of the opening at the phone (${N} call-backs)`, answerToOpeningMs],
  [`call-back: the end of the person's one "Hello?" → first audio of the opening (${helloToOpeningMs.length} of ${N} needed one "Hello?")`, helloToOpeningMs],
  [`reference, same run: an inbound agent call's answer → first greeting audio at the caller (${N} calls)`, greetingMs],
];
for (const [measure, xs] of rows) report({ bench: 'call-back-first-words', measure: `${measure}, p50 / p95 / max`, value: spread(xs) });
console.log('\n| measure | p50 / p95 / max |\n|---|---|');
for (const [measure, xs] of rows) console.log(`| ${measure} | ${spread(xs)} |`);
await h.close();
process.exit(0);
