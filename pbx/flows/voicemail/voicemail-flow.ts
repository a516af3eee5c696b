import { AriRequestError, type RecordingSnapshot } from '../../ari/types.js';
import { repairWavSizes } from '../../recordings/wav-repair.js';
import { NO_MESSAGE_GOODBYE, THANK_YOU } from '../../../dialogue/spoken/call-lines.js';
import { BEEP, FALLBACK_SOUNDS } from '../../../dialogue/spoken/sounds.js';
import { answer, awaitRecording, hangUp, queueOptional, record, say } from '../steps.js';
import type { FlowContext } from '../types.js';
import { audioHoldsMessage, recordingHasMessage } from './message-rule.js';
import { greetWithTeamMenu } from './team-menu.js';

/** The name the message has on Asterisk; stored locally as `<name>.wav` in $DATA_DIR/recordings. */
export function recordingNameFor(callId: number): string {
  return `call-${callId}`;
}

/**
 * Voicemail: answer, greet in the owner's voice (with the team menu, team-menu.ts), beep, record (max length, silence stop,
 * `#` to finish), thank the caller and hang up. `ctx.outcome` is filled in as each step
 * completes, so a hang-up or failure at any point still leaves a correct call row.
 * A call taken over after a core restart continues where it stands: a recording still
 * running is waited for, a finished one is kept, and a message is never recorded over.
 */
export async function voicemailFlow(ctx: FlowContext): Promise<void> {
  const { owner, outcome } = ctx;
  await answer(ctx);
  outcome.answered = true;

  const name = recordingNameFor(ctx.callId);
  let finished = ctx.resumed ? await messageInProgress(ctx, name) : undefined;
  if (!finished) {
    if ((await greetWithTeamMenu(ctx)) === 'connected') return;
    // The recording is asked for as soon as Asterisk has taken the beep, not when the beep has
    // ended: Asterisk runs them in order, so it records from the instant the beep stops, however
    // late our requests are. Waiting for the beep's end first left a gap of seconds under load,
    // and callers who spoke straight after the beep were filed as silent. A missing beep must
    // not cost the caller their message.
    await queueOptional(ctx, BEEP, 10_000);
    // Named before the request: if Asterisk starts the recording but its answer (or the
    // recording's end) never reaches us, the finisher still looks for the file by this name.
    outcome.recordingName = name;
    try {
      finished = await record(
        ctx,
        {
          name,
          format: 'wav',
          maxDurationSeconds: ctx.limits.maxDurationSeconds,
          maxSilenceSeconds: ctx.limits.maxSilenceSeconds,
          // The name is unique per call row: one that exists is a message already taken (by a
          // run of the core that died), which must never be replaced.
          ifExists: 'fail',
          beep: false, // we played our own beep after the greeting
          terminateOn: '#',
        },
      );
    } catch (err) {
      // Refused outright (Asterisk answered with an error such as 500): no recording was started,
      // so there is no file for the finisher to look for. A 409 means the file already exists
      // (a message taken by a run that died), which the finisher must keep.
      if (err instanceof AriRequestError && err.status !== 409) outcome.recordingName = undefined;
      throw err;
    }
  }
  outcome.recordingName = name;
  outcome.message = recordingHasMessage(finished);
  if (outcome.message === 'unknown' && !ctx.session.hangupRequested) outcome.message = await judgeStoredAudio(ctx, name);
  if (outcome.message === 'no') {
    // The call is filed as missed: what Asterisk reported is what an operator needs to see why.
    ctx.log.info({ callId: ctx.callId, state: finished.state, duration: finished.duration, talking: finished.talking_duration, silence: finished.silence_duration }, 'the recording holds no message');
  }
  if (ctx.session.hangupRequested) return;

  await say(ctx, outcome.message === 'no' ? NO_MESSAGE_GOODBYE : THANK_YOU, owner.voice, FALLBACK_SOUNDS.goodbye);
  await hangUp(ctx);
}

/** After a take-over: the recording Asterisk is still making, or the one it finished; none → start afresh. */
async function messageInProgress(ctx: FlowContext, name: string): Promise<RecordingSnapshot | undefined> {
  const live = await ctx.rest.getLiveRecording(name);
  if (live && (live.state === 'recording' || live.state === 'queued' || live.state === 'paused')) {
    ctx.log.info({ callId: ctx.callId }, 'taking over a call mid-message: letting the recording finish');
    return awaitRecording(ctx, name, (ctx.limits.maxDurationSeconds + 60) * 1000);
  }
  if (await ctx.rest.storedRecordingExists(name)) {
    ctx.log.info({ callId: ctx.callId }, 'taking over a call whose message is already recorded');
    return { name, state: 'done' } as RecordingSnapshot;
  }
  return undefined;
}

/**
 * Asterisk's figures could not tell (see message-rule.ts): the audio it stored decides, so
 * a silent caller is told no message was heard. Unreadable → "unknown": the finisher,
 * which stores the file, decides, and the caller is thanked rather than told nothing was heard.
 */
async function judgeStoredAudio(ctx: FlowContext, name: string): Promise<'yes' | 'no' | 'unknown'> {
  try {
    return audioHoldsMessage(repairWavSizes(await ctx.rest.fetchStoredRecording(name))) ? 'yes' : 'no';
  } catch (err) {
    ctx.log.warn({ err, callId: ctx.callId }, 'could not read the recording to judge it; the stored copy will decide');
    return 'unknown';
  }
}
