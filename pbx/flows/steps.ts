import type { Voice } from '../../models/tts/index.js';
import type { PromptCache } from '../../models/tts/index.js';
import { AriNotFoundError, AriTimeoutError, type AriEvent, type AriRest, type RecordingSnapshot, type RecordOptions } from '../ari/types.js';
import { CallEnded, lateAnswerGraceMs, type CallSession } from '../call-session.js';
import type { Log } from '../../contract/log.js';

// The small steps call flows are made of. Each one waits for the event that ends it,
// is bounded in time, and has a probe so a reconnect can tell whether it already ended.

export interface StepDeps {
  session: CallSession;
  rest: AriRest;
}

let playbackSeq = 0;


/**
 * Sends a request whose effect an event shows (`started`, registered before the request). A
 * timeout is no refusal: an overloaded Asterisk answers late but still carries the request
 * out, so the step waits a while for that event (lateAnswerGraceMs) and goes on if it comes;
 * only then does the timeout stand. Any other error stands at once.
 */
async function sendExpecting(request: () => Promise<unknown>, started: Promise<AriEvent>): Promise<void> {
  started.catch(() => undefined);
  try {
    await request();
  } catch (err) {
    if (!(err instanceof AriTimeoutError) || lateAnswerGraceMs(err) === 0) throw err;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(err), lateAnswerGraceMs(err))));
    try {
      await Promise.race([started, grace]);
    } catch (late) {
      throw late instanceof CallEnded ? late : err;
    } finally {
      clearTimeout(timer);
    }
  }
}

export async function answer({ session, rest }: StepDeps): Promise<void> {
  if (session.hangupRequested) throw new CallEnded('caller hung up before the answer');
  await session.answer(rest);
}

/** Plays one media URI and waits for it to finish. Returns false if Asterisk could not play it. */
export async function play(deps: StepDeps, media: string, maxMs: number): Promise<boolean> {
  return (await startPlayback(deps, media, maxMs))();
}

/**
 * Asks Asterisk to play one media URI; resolves once Asterisk has taken the request, with a
 * wait for the playback's end (false if Asterisk could not play it). Asterisk runs a channel's
 * operations in order, so a request sent after this one starts the instant the playback ends.
 */
async function startPlayback({ session, rest }: StepDeps, media: string, maxMs: number): Promise<() => Promise<boolean>> {
  if (session.hangupRequested) throw new CallEnded('caller hung up');
  const playbackId = `pb-${session.channelId}-${++playbackSeq}`;
  const finished = session.waitFor((e) => e.type === 'PlaybackFinished' && e.playback?.id === playbackId, {
    what: `playback of ${media}`,
    timeoutMs: maxMs,
    // A playback Asterisk no longer knows has finished.
    probe: async () => ((await rest.getPlayback(playbackId)) ? undefined : standIn('PlaybackFinished', { playback: { id: playbackId, state: 'done', media_uri: media, target_uri: `channel:${session.channelId}` } })),
  });
  const started = session.waitFor((e) => (e.type === 'PlaybackStarted' || e.type === 'PlaybackFinished') && e.playback?.id === playbackId, { what: `start of ${media}`, timeoutMs: maxMs });
  try {
    await sendExpecting(() => rest.play(session.channelId, media, playbackId), started);
  } catch (err) {
    finished.catch(() => undefined);
    throw err;
  }
  return async () => (await finished).playback?.state !== 'failed';
}

/**
 * Speaks `text` in `voice` through the prompt cache. If the TTS engine fails or Asterisk
 * cannot play the file, the built-in `fallback` sound plays instead: never dead air.
 */
export async function say(deps: StepDeps & { prompts: PromptCache; log: Pick<Log, 'warn' | 'debug'> }, text: string, voice: Voice, fallback: string): Promise<void> {
  let media = fallback;
  let maxMs = 30_000;
  try {
    deps.log.debug?.({ channelId: deps.session.channelId, voice }, 'preparing prompt');
    const prompt = await deps.prompts.get(text, voice);
    deps.log.debug?.({ channelId: deps.session.channelId, media: prompt.mediaUri }, 'prompt ready');
    media = prompt.mediaUri;
    maxMs = prompt.durationMs + 30_000;
  } catch (err) {
    deps.log.warn({ err, channelId: deps.session.channelId }, 'prompt synthesis failed; playing the built-in fallback');
  }
  let played: boolean;
  try {
    played = await play(deps, media, maxMs);
  } catch (err) {
    // Asterisk refused the playback itself (an error status): the built-in sound is the next best.
    if (err instanceof CallEnded || media === fallback) throw err;
    deps.log.warn({ err, channelId: deps.session.channelId }, 'Asterisk refused the prompt; playing the built-in fallback');
    played = false;
  }
  // Asterisk reports a playback cut short by the caller's hang-up as failed: nothing to replace.
  if (!played && deps.session.hangupRequested) throw new CallEnded('caller hung up during a prompt');
  if (!played && media !== fallback) {
    deps.log.warn({ media, channelId: deps.session.channelId }, 'Asterisk could not play the prompt; playing the built-in fallback');
    await play(deps, fallback, 30_000);
  }
}

/**
 * A tone that is nice to have (the beep), asked for but not waited on: if Asterisk refuses
 * it, the call goes on without it. What is asked for next starts as soon as it ends.
 */
export async function queueOptional(deps: StepDeps & { log: Pick<Log, 'warn'> }, media: string, maxMs: number): Promise<void> {
  try {
    const finished = await startPlayback(deps, media, maxMs);
    void finished().catch(() => undefined);
  } catch (err) {
    if (err instanceof CallEnded) throw err;
    deps.log.warn({ err, channelId: deps.session.channelId, media }, 'Asterisk refused an optional sound; carrying on');
  }
}

/**
 * Records the caller until a limit, `#`, or hang-up; resolves with the finished recording.
 * `onAccepted` runs once Asterisk has accepted the request: from then on a file may exist.
 */
export async function record({ session, rest }: StepDeps, opts: RecordOptions, onAccepted?: () => void): Promise<RecordingSnapshot> {
  if (session.hangupRequested) throw new CallEnded('caller hung up');
  const finished = recordingFinished({ session, rest }, opts.name, (opts.maxDurationSeconds + 60) * 1000);
  const started = session.waitFor((e) => e.type.startsWith('Recording') && e.recording?.name === opts.name, { what: `start of recording ${opts.name}`, timeoutMs: (opts.maxDurationSeconds + 60) * 1000 });
  try {
    await sendExpecting(() => rest.record(session.channelId, opts), started);
  } catch (err) {
    finished.catch(() => undefined);
    throw err;
  }
  onAccepted?.();
  return (await finished).recording!;
}

/** Waits for a recording already running on Asterisk (a call taken over after a restart) to finish. */
export async function awaitRecording(deps: StepDeps, name: string, maxMs: number): Promise<RecordingSnapshot> {
  return (await recordingFinished(deps, name, maxMs)).recording!;
}

function recordingFinished({ session, rest }: StepDeps, name: string, timeoutMs: number): Promise<AriEvent> {
  const matches = (e: AriEvent) => (e.type === 'RecordingFinished' || e.type === 'RecordingFailed') && e.recording?.name === name;
  return session.waitFor(matches, {
    what: `recording ${name}`,
    timeoutMs,
    probe: async () => {
      if (await rest.getLiveRecording(name)) return undefined;
      // Finished while we were not listening: the file says whether anything was kept.
      const stored = await rest.storedRecordingExists(name);
      return standIn(stored ? 'RecordingFinished' : 'RecordingFailed', {
        recording: { name, state: stored ? 'done' : 'failed', target_uri: `channel:${session.channelId}` },
      });
    },
  });
}

export async function hangUp({ session, rest }: StepDeps): Promise<void> {
  // Once Asterisk has accepted our hang-up, a second one only earns a 404.
  if (session.gone || session.hangupAccepted) return;
  try {
    await rest.hangup(session.channelId, 'normal');
    session.hangupAccepted = true;
  } catch (err) {
    if (!(err instanceof AriNotFoundError)) throw err;
    session.markGone();
  }
}

function standIn(type: string, fields: Partial<AriEvent>): AriEvent {
  return { type, timestamp: '', ...fields } as AriEvent;
}
