// Take over in the browser (issue 54) on the real Asterisk 20.17.0 with the project's
// configuration: a SIPp caller talks with the agent; the owner, on the Live page in Debian's
// Chromium with a fake microphone playing a tone, presses Take over › In this browser. The
// caller hears the agent's handover line, then the owner's tone; the owner's page hears the
// caller; the agent says nothing more; the call row says who took over; the owner hangs up and
// the caller is hung up too; the call's one recording holds the caller and the owner.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { ensureConsoleBuilt } from '../e2e/support/build-console.js';
import { waitUntil } from '../helpers/wait.js';
import { hearsAgent, hearsAudio } from '../pbx-real/agent-caller.js';
import { FRAME, RATE, readWavSamples, speech, tonePower, toneMs } from '../pbx-real/audio.js';
import { ANSWERS_ONLY, realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { launchWithMicrophone } from '../call-my-line/browser-caller.js';
import { ownerWithLine } from '../call-my-line/owner-line.js';
import { openLivePage, toneFile } from './live-page.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 240_000 });

/** The owner's fake microphone: neither Asterisk's beep (1000 Hz) nor UK ringback (400/450 Hz). */
const OWNER_HZ = 1300;
/** What the caller sends after the take-over, so both sides are told apart in the one recording. */
const CALLER_HZ = 700;

/** Milliseconds of frames holding both tones at once (each a fifth of the frame's power or more): the two sides mixed. */
function bothTonesMs(s: Int16Array): number {
  let frames = 0;
  for (let i = 0; i + FRAME <= s.length; i += FRAME) {
    const f = s.subarray(i, i + FRAME);
    const energy = f.reduce((sum, v) => sum + v * v, 0);
    if (energy < FRAME * 300 * 300) continue;
    const share = (hz: number) => tonePower(f, hz) / (FRAME / 2) / energy;
    if (share(OWNER_HZ) > 0.2 && share(CALLER_HZ) > 0.2) frames++;
  }
  return frames * 20;
}

function tone(hz: number, seconds: number): Int16Array {
  const s = new Int16Array(seconds * RATE);
  for (let i = 0; i < s.length; i++) s[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / RATE));
  return s;
}

describe.skipIf(!real.ok)('taking over an agent call in the browser, on the real PBX', () => {
  let h: RealPbx;
  const browsers: Browser[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'take-over-'));
  beforeAll(async () => {
    h = await startRealPbx({ consoleDir: ensureConsoleBuilt(), agent: true, env: ANSWERS_ONLY });
    h.ollama.replier = () => JSON.stringify({ intent: 'question', answered: false, answer: '' });
  }, 240_000);
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the caller hears the handover line once, then the owner; the row names the owner; the recording holds both', async () => {
    const owner = await ownerWithLine(h.server, '+447700900831', { businessName: 'Hale Plumbing' }, { aiMode: 'agent', knowledgeBase: 'Q: Do you cover York?\nA: Yes.' });
    const call = await h.call(owner.did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));
    const row = (await h.rows(owner.did))[0]!;

    // A long tone: Chromium plays the file from when the line takes the microphone, and the
    // owner's leg joins the bridge only after the handover line, however long that takes here.
    const browser = await launchWithMicrophone(toneFile(path.join(dir, 'owner.wav'), OWNER_HZ, 120));
    browsers.push(browser);
    const { page, audio } = await openLivePage(browser, h.server.url, owner.client, row.id);
    const card = page.getByTestId(`live-control-${row.id}`);
    await card.getByRole('button', { name: 'Take over' }).click();
    const pressedAt = performance.now();
    await card.getByRole('button', { name: 'In this browser' }).click();

    const handover = fixedLines('en').handover('Hale Plumbing');
    await hearsAudio(h, call.media, pressedAt, [readWavSamples(await h.promptFile(handover))], `"${handover}"`);
    // The owner's microphone reaches the caller through the agent's bridge.
    await waitUntil(() => expect(toneMs(call.media.heard(pressedAt), OWNER_HZ)).toBeGreaterThan(2000), 60_000, 100);
    await expect.poll(() => page.getByTestId(`live-control-state-${row.id}`).textContent(), { timeout: 30_000 }).toBe('You are on the call');

    // The caller speaks to the owner: nobody transcribes or answers it any more (the agent left).
    const whisperCalls = h.whisper.requests.length;
    h.whisper.defaultTranscript = 'Are you still there?';
    const spokeAt = performance.now();
    await call.media.say(speech('Are you still there?'));
    await call.media.say(tone(CALLER_HZ, 3));
    // The owner's page hears the caller (two-way: the owner's leg is in the caller's bridge).
    await waitUntil(() => expect(toneMs(audio.heard(spokeAt), CALLER_HZ)).toBeGreaterThan(1000), 60_000, 100);

    const { calls } = tablesOf(h.server.database.db);
    const [marked] = await h.server.database.db.select().from(calls).where(eq(calls.id, row.id));
    expect(marked).toMatchObject({ takenOverBy: 'the owner', takenOverVia: 'browser' });
    expect(marked!.takenOverAt).toBeInstanceOf(Date);

    await card.getByRole('button', { name: 'Hang up' }).click();
    expect((await call.done).exitCode).toBe(0); // the core hung the caller up too
    await audio.stop();
    const ended = await h.finishedRow(owner.did, 90_000);
    expect(ended).toMatchObject({ status: 'answered', mode: 'agent', takenOverBy: 'the owner', takenOverVia: 'browser', recordingFile: `call-${row.id}.wav` });

    // The agent's last words are the handover, said once; the caller's words after it reached no engine.
    // (The transcript joins an agent's lines with nothing said between them into one turn.)
    const transcript = ended.transcription ?? '';
    expect(transcript.trimEnd().endsWith(handover)).toBe(true);
    expect(transcript.split(handover)).toHaveLength(2);
    expect(ended.transcription).not.toContain('Are you still there?');
    expect(h.whisper.requests.length).toBe(whisperCalls);

    // The recording carried on across the take-over: the owner's tone alone, and mixed with the caller's.
    const mix = readWavSamples(path.join(h.server.dataDir, 'recordings', ended.recordingFile!));
    const ownerAlone = toneMs(mix, OWNER_HZ);
    const both = bothTonesMs(mix);
    console.log(`take-over recording: owner's tone alone ${ownerAlone} ms, owner and caller together ${both} ms`);
    expect(ownerAlone).toBeGreaterThan(1000);
    expect(both).toBeGreaterThan(1000);
  });
});
