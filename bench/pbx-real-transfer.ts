// Warm transfer on a real Asterisk 20.17.0, timed where people notice it. Agent-mode callers
// (SIPp) ask "Can I speak to a person please?"; the owner's phone is a SIPp user agent on the
// trunk's far end that answers, hears the briefing and presses 1, then speaks. Engine doubles
// with fixed latencies (STT, LLM; TTS is real espeak-ng). Prints figures, nothing passes or fails:
//   end of the caller's "put me through" → the owner's phone ringing (INVITE at the phone),
//   the owner's key press → the caller hearing the owner (bridge up, audio through),
//   and, for reference in the same run, the owner's voice → the caller once already connected
//   (the path's own mouth-to-ear delay, the floor under the second figure).
// Run: npx tsx bench/pbx-real-transfer.ts [calls=5] [sttMs=150] [llmMs=300]
import { defaultCallHandling, saveCallHandling } from '../core/call-handling/index.js';
import { waitUntil } from '../test/helpers/wait.js';
import { envelope, speech, tonePower } from '../test/pbx-real/audio.js';
import { realPbxAvailability, startRealPbx } from '../test/pbx-real/harness.js';
import { machine, percentile, report } from './lib/report.js';

const N = Number(process.argv[2] ?? 5);
const STT_MS = Number(process.argv[3] ?? 150);
const LLM_MS = Number(process.argv[4] ?? 300);
if (!realPbxAvailability().ok) process.exit(0);

console.log(`pbx-real-transfer: ${N} agent calls put through one after another on ${machine()}; STT ${STT_MS} ms, LLM ${LLM_MS} ms, TTS espeak-ng`);
const h = await startRealPbx({ agent: true, ownerPhone: true });
h.whisper.delayMs = STT_MS;
h.ollama.always = { delayMs: LLM_MS };
h.ollama.replier = () => JSON.stringify({ intent: 'human', answered: false, answer: '' });
h.whisper.defaultTranscript = 'Can I speak to a person please?';
const ask = speech('Can I speak to a person please?');
// The owner "speaks" a 1 kHz tone: told apart from the UK ringback (400 + 450 Hz) the caller
// hears until the bridge is up, so the first frame of it is the moment the two are connected.
const hello = Int16Array.from({ length: 8000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 1000 * i) / 8000)));
/** Arrival of the first frame after `from` that is the owner's tone, not ringback or silence. */
const ownerHeardAfter = (frames: Array<{ at: number; samples: Int16Array }>, from: number) =>
  frames.find((f) => f.at >= from && tonePower(f.samples, 1000) > 1e9 && tonePower(f.samples, 1000) > 10 * (tonePower(f.samples, 400) + tonePower(f.samples, 450)))?.at;
/** espeak-ng ends its audio with quiet: the speech ended that long before the last frame left. */
const trailingQuietMs = (() => {
  const levels = envelope(ask);
  let n = 0;
  while (n < levels.length && levels[levels.length - 1 - n]! < 250) n++;
  return n * 20;
})();

const toRingMs: number[] = [];
const keyToVoiceMs: number[] = [];
const mouthToEarMs: number[] = [];
for (let i = 0; i < N; i++) {
  const to = h.ownerPhone!.number('answers');
  const b = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: 'Q: Hours?\nA: Eight till six.' });
  await saveCallHandling(h.server.database.db, b.userId, { ...defaultCallHandling(), transferNumber: to }, new Date());
  const call = await h.call(b.did);
  // The greeting, then quiet: the moment to ask.
  await waitUntil(() => (call.media.soundMs() > 1000 ? call.media.silenceStartedAfter(0, 800) : undefined) ?? Promise.reject(new Error('greeting')), 60_000, 20);
  await call.media.say(ask);
  const askedAt = performance.now() - trailingQuietMs;
  const owner = await h.ownerPhone!.nextCall(to, 60_000);
  toRingMs.push(owner.invitedAt - askedAt);
  // The briefing, then quiet: the owner presses 1 and speaks at once.
  await waitUntil(() => (owner.media.soundMs() > 1000 ? owner.media.silenceStartedAfter(0, 500) : undefined) ?? Promise.reject(new Error('briefing')), 60_000, 20);
  const pressedAt = performance.now();
  void owner.media.digits('1').then(() => owner.media.say(hello));
  const heard = await waitUntil(() => ownerHeardAfter(call.media.heardFrames, pressedAt) ?? Promise.reject(new Error('owner not heard yet')), 30_000, 5);
  keyToVoiceMs.push(heard - pressedAt);
  // Connected: the owner speaks again after a pause, and the caller hears it after the path's own delay.
  await waitUntil(() => call.media.silenceStartedAfter(heard, 600) ?? Promise.reject(new Error('still talking')), 30_000, 20);
  const utterance = owner.media.spokeAt.length;
  void owner.media.say(hello);
  const spokeAt = await waitUntil(() => owner.media.spokeAt[utterance] ?? Promise.reject(new Error('not speaking')), 5000, 2);
  const arrived = await waitUntil(() => ownerHeardAfter(call.media.heardFrames, spokeAt) ?? Promise.reject(new Error('not heard')), 10_000, 2);
  mouthToEarMs.push(arrived - spokeAt);
  await owner.hangUp();
  await call.done;
}
const f = (v: number) => `${v.toFixed(0)} ms`;
const p = (xs: number[]) => `${f(percentile(xs, 50))} / ${f(Math.max(...xs))}`;
report({ bench: 'pbx-real-transfer', measure: `end of "put me through" → owner's phone ringing, p50 / max (${N} calls, STT ${STT_MS} + LLM ${LLM_MS} ms)`, value: p(toRingMs), budget: 'engine time + "Let me try to put you through" + 1 s' });
report({ bench: 'pbx-real-transfer', measure: "owner's key press → caller hears the owner, p50 / max", value: p(keyToVoiceMs), budget: '< 500 ms' });
report({ bench: 'pbx-real-transfer', measure: 'reference, same run: owner speaks → caller hears, once connected, p50 / max', value: p(mouthToEarMs) });
await h.close();
process.exit(0);
