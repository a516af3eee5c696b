import { BEEP, FALLBACK_SOUNDS, NO_MESSAGE_GOODBYE, THANK_YOU } from '../messages.js';
import { answer, hangUp, playOptional, record, say } from '../steps.js';
import type { FlowContext } from '../types.js';
import { chooseGreeting } from './greeting.js';
import { recordingHasMessage } from './message-rule.js';

/** The name the message has on Asterisk; stored locally as `<name>.wav` in $DATA_DIR/recordings. */
export function recordingNameFor(callId: number): string {
  return `call-${callId}`;
}

/**
 * Voicemail: answer, greet in the owner's voice, beep, record (max length, silence stop,
 * `#` to finish), thank the caller and hang up. `ctx.outcome` is filled in as each step
 * completes, so a hang-up or failure at any point still leaves a correct call row.
 */
export async function voicemailFlow(ctx: FlowContext): Promise<void> {
  const { owner, outcome } = ctx;
  await answer(ctx);
  outcome.answered = true;

  await say(ctx, chooseGreeting(owner), owner.voice, FALLBACK_SOUNDS.greeting);
  // A missing beep must not cost the caller their message.
  await playOptional(ctx, BEEP, 10_000);

  const name = recordingNameFor(ctx.callId);
  outcome.recordingName = name;
  const finished = await record(ctx, {
    name,
    format: 'wav',
    maxDurationSeconds: ctx.limits.maxDurationSeconds,
    maxSilenceSeconds: ctx.limits.maxSilenceSeconds,
    // The name is unique per call row; a leftover from an interrupted attempt of the same
    // call (adopted after a restart) is replaced rather than failing the caller.
    ifExists: 'overwrite',
    beep: false, // we played our own beep after the greeting
    terminateOn: '#',
  });
  outcome.message = recordingHasMessage(finished);
  if (ctx.session.hangupRequested) return;

  await say(ctx, outcome.message === 'no' ? NO_MESSAGE_GOODBYE : THANK_YOU, owner.voice, FALLBACK_SOUNDS.goodbye);
  await hangUp(ctx);
}
