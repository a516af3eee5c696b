// Take over in the browser (issue 54) on the real Asterisk 20.17.0 with the project's
// configuration: a SIPp caller talks with the agent; the owner, on the Live page in Debian's
// Chromium with a fake microphone playing a tone, presses Take over › In this browser. The
// caller hears the agent's handover line, then the owner's tone; the owner's page hears the
// caller; the agent says nothing more; the call row says who took over; the owner hangs up and
// the caller is hung up too; the call's one recording holds the caller and the owner.
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { waitUntil } from '../helpers/wait.js';
import { hearsAudio } from '../pbx-real/agent-caller.js';
import { FRAME, readWavSamples, speech, tonePower, toneMs } from '../pbx-real/audio.js';
import { realPbxAvailability } from '../pbx-real/harness.js';
import { livePageOnRealPbx, toneSamples } from './live-page.js';

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

describe.skipIf(!real.ok)('taking over an agent call in the browser, on the real PBX', () => {
  const live = livePageOnRealPbx('take-over-');

  it('the caller hears the handover line once, then the owner; the row names the owner; the recording holds both', async () => {
    const h = live.pbx();
    // A long tone (livePageOnRealPbx says why): the owner's leg joins the bridge only after the handover line.
    const { owner, call, row, page, audio, card } = await live.agentCallOnLivePage('+447700900831', OWNER_HZ);
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
    await call.media.say(toneSamples(CALLER_HZ, 3));
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
