import { chooseGreeting, noticeAfterRecordedGreeting } from '../../../dialogue/spoken/greeting.js';
import { FALLBACK_SOUNDS } from '../../../dialogue/spoken/sounds.js';
import { greetingRecordingFile, recordingSoundKey, VOICEMAIL_GREETING_KEY } from '../../../models/audio/greeting-recording.js';
import { recordedPrompt } from '../../../models/tts/recorded-prompt.js';
import type { Prompt } from '../../../models/tts/tts.js';
import { CallEnded } from '../../call-session.js';
import { play, say } from '../steps.js';
import type { FlowContext, OwnerProfile } from '../types.js';

// The voicemail greeting (SPEC §2 Call Greeting), or in its place the owner's own recording of it
// (issue 57: PUT /api/voicemail/greeting-recording), then the recording notice the spoken
// greeting carried (dialogue/spoken/greeting.ts noticeAfterRecordedGreeting). A recording that
// cannot be played, whether gone before the call or failing in Asterisk, gives the spoken
// greeting: the caller never hears silence where a greeting should be.

/**
 * Greets the caller. `interrupted`: the caller has already chosen (a team-menu key stopped the
 * playback), so nothing more is said.
 */
export async function sayVoicemailGreeting(ctx: FlowContext, interrupted: () => boolean = () => false): Promise<void> {
  const { owner } = ctx;
  const recording = await ownRecording(ctx);
  if (recording) {
    if (await playedRecording(ctx, recording)) {
      const notice = noticeAfterRecordedGreeting(owner);
      // The built-in greeting also says the call is recorded: the notice is heard even without TTS.
      if (notice && !interrupted()) await say(ctx, notice, owner.voice, FALLBACK_SOUNDS.greeting);
      return;
    }
    if (interrupted()) return;
  }
  await say(ctx, chooseGreeting(owner), owner.voice, FALLBACK_SOUNDS.greeting);
}

/** The owner's recording as a sound Asterisk can play, if they have one and it can be read. */
async function ownRecording(ctx: FlowContext): Promise<Prompt | undefined> {
  const name = ctx.owner.greetingRecordings?.[VOICEMAIL_GREETING_KEY];
  if (!name || !ctx.dataDir) return undefined;
  try {
    return await recordedPrompt(ctx.dataDir, greetingRecordingFile(ctx.dataDir, ctx.owner.userId, name), recordingSoundKey(ctx.owner.userId, name));
  } catch (err) {
    // Removed or replaced since the call looked the owner up: the spoken greeting instead.
    ctx.log.warn({ err, callId: ctx.callId }, "voicemail: the owner's recorded greeting could not be read; saying the spoken greeting instead");
    return undefined;
  }
}

/** Plays the recording to the end; false when Asterisk could not (the file went mid-call, a refused playback, a key cut it short). */
async function playedRecording(ctx: FlowContext, recording: Prompt): Promise<boolean> {
  let played: boolean;
  try {
    played = await play(ctx, recording.mediaUri, recording.durationMs + 30_000);
  } catch (err) {
    if (err instanceof CallEnded) throw err;
    ctx.log.warn({ err, callId: ctx.callId }, "voicemail: Asterisk refused the owner's recorded greeting; saying the spoken greeting instead");
    return false;
  }
  // Asterisk reports a playback cut short by the caller's hang-up as failed: nothing to replace.
  if (!played && ctx.session.hangupRequested) throw new CallEnded('caller hung up during the greeting');
  if (!played) ctx.log.warn({ callId: ctx.callId, media: recording.mediaUri }, "voicemail: Asterisk could not play the owner's recorded greeting; saying the spoken greeting instead");
  return played;
}

/**
 * The owner as a call outside their hours sees them: the closed-hours greeting they wrote is said,
 * not their everyday recorded greeting (which may well say "we're open, leave a message").
 */
export function withClosedHoursGreeting(owner: OwnerProfile, greeting: string): OwnerProfile {
  const recordings = { ...owner.greetingRecordings };
  delete recordings[VOICEMAIL_GREETING_KEY];
  return { ...owner, callGreeting: greeting, greetingRecordings: recordings };
}
