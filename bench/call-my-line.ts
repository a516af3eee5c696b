// "Call my line" (issue 28), timed where the owner notices it: the button pressed in Debian's
// Chromium → the greeting heard in the page (its first 20 ms of sound leaving for the speaker,
// recorded by test/call-my-line/page-audio.ts). Everything between is real: POST /api/test-call
// (the per-call endpoint over ARI), the microphone, JsSIP over the core's WebSocket proxy, ICE
// and DTLS-SRTP on loopback, Asterisk 20.17.0 answering into Stasis, the greeting. Calls one
// after another, each from a fresh page, in voicemail mode and in agent mode (engine doubles;
// the greeting needs only espeak-ng). The first call of each mode synthesises its greeting and
// is reported apart. Prints figures, nothing passes or fails.
// Run: npx tsx bench/call-my-line.ts [calls=10]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentGreeting } from '../dialogue/spoken/agent-lines.js';
import { businessGreeting } from '../dialogue/spoken/greeting.js';
import { ensureConsoleBuilt } from '../test/e2e/support/build-console.js';
import { waitUntil } from '../test/helpers/wait.js';
import { hearsAudio } from '../test/pbx-real/agent-caller.js';
import { envelopeMatch, RATE, readWavSamples } from '../test/pbx-real/audio.js';
import { realPbxAvailability, startRealPbx } from '../test/pbx-real/harness.js';
import { launchWithMicrophone, microphoneFile, openCallMyLine } from '../test/call-my-line/browser-caller.js';
import { ownerWithLine } from '../test/call-my-line/owner-line.js';
import { machine, percentile, report } from './lib/report.js';

const N = Number(process.argv[2] ?? 10);
if (!realPbxAvailability().ok) process.exit(0);

const conditions = `${N} calls one after another, each from a fresh page, Chromium headless, loopback, G.711 over DTLS-SRTP`;
console.log(`call-my-line: ${conditions}, on ${machine()}`);
// N+1 presses per owner: past the 10 an hour an owner may make (core/http/rate-limits.ts).
const h = await startRealPbx({ consoleDir: ensureConsoleBuilt(), agent: true, rateLimits: { testCallsPerOwner: { max: 10_000, windowMs: 60 * 60_000 } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-call-my-line-'));
// The owner says nothing: a quiet microphone.
const browser = await launchWithMicrophone(microphoneFile(path.join(dir, 'quiet.wav'), new Int16Array(0), RATE));

const modes = [
  { mode: 'voicemail', did: '+447700900821', greeting: businessGreeting('Hale Plumbing'), fields: {} },
  { mode: 'agent', did: '+447700900822', greeting: agentGreeting('Hale Plumbing'), fields: { aiMode: 'agent' as const, knowledgeBase: 'Q: Do you cover York?\nA: Yes.' } },
];
const f = (v: number) => `${v.toFixed(0)} ms`;
for (const m of modes) {
  const owner = await ownerWithLine(h.server, m.did, { businessName: 'Hale Plumbing' }, m.fields);
  const times: number[] = [];
  let first = NaN;
  for (let i = 0; i <= N; i++) {
    const { page, audio } = await openCallMyLine(browser, h.server.url, owner.client);
    await page.getByRole('button', { name: 'Call my line' }).click();
    const pressed = await waitUntil(() => audio.pressedAt('Call my line') ?? Promise.reject(new Error('press not read yet')), 5000);
    const heard = await waitUntil(() => audio.firstSoundAfter(pressed) ?? Promise.reject(new Error('nothing heard yet')), 60_000, 20);
    // Asked for only now, so the first call's greeting is made by the core, not by this bench.
    const reference = readWavSamples(await h.promptFile(m.greeting));
    await hearsAudio(h, audio, pressed, [reference], `the ${m.mode} greeting`);
    // The first sound is the greeting's start, not something before it (checked once it has played).
    await waitUntil(() => audio.silenceStartedAfter(heard, 1000) ?? Promise.reject(new Error('greeting still playing')), 30_000);
    const opening = audio.heard(heard).subarray(0, reference.length + RATE);
    if (envelopeMatch(reference, opening).score < audio.hearsAt) throw new Error(`call ${i}: the first sound in the page is not the greeting`);
    if (i === 0) first = heard - pressed;
    else times.push(heard - pressed);
    await page.getByRole('button', { name: 'Hang up' }).click();
    await waitUntil(async () => ((await page.getByTestId('call-my-line-state').textContent()) === 'Call ended' ? true : Promise.reject(new Error('still in the call'))), 30_000);
    await audio.stop();
    await page.context().close();
    // The core withdraws the call's endpoint when its row is final: then the next call may start.
    await waitUntil(async () => ((await h.rows(m.did)).filter((r) => r.endedAt && h.finished.includes(r.id)).length > i ? true : Promise.reject(new Error('call not final'))), 30_000);
  }
  report({
    bench: 'call-my-line',
    measure: `"Call my line" pressed → greeting heard in the page, p50 / p95, ${m.mode} mode (${conditions}; the first call, greeting not yet synthesised: ${f(first)})`,
    value: `${f(percentile(times, 50))} / ${f(percentile(times, 95))}`,
  });
}
console.log(`after the run: ${machine()}`);
await browser.close();
await h.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
