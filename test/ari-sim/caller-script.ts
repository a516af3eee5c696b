import { readWav, silencePcm } from './wav.js';

/** One thing a scripted caller does once a recording starts on their channel. */
export type CallerStep =
  | { say: string } // a WAV file of the caller's words (8 kHz mono 16-bit, see callerSpeech)
  | { silence: number } // ms
  | { press: string } // a DTMF digit, reported on key release
  | { hangup: true };

export interface CallerScript {
  /** Hang up this many (simulated) ms after entering Stasis, whatever is playing. */
  hangupAfterMs?: number;
  /**
   * Hang up this many (simulated) ms after the first sound starts playing to them: "during
   * the greeting" however long the app took to make it (a greeting rendered on a loaded box).
   */
  hangupIntoFirstSoundMs?: number;
  /** What the caller does when the app starts recording them. Afterwards they stay silent. */
  onRecord?: CallerStep[];
  /** A caller left alone hangs up after this long (simulated ms); default 10 minutes. */
  patienceMs?: number;
}

export interface RecordLimits {
  maxDurationMs: number; // 0 = none
  maxSilenceMs: number; // 0 = none
  terminateOn: string; // none | any | * | #
}

type TimelineEvent =
  | { at: number; kind: 'talk-start' }
  | { at: number; kind: 'talk-end'; durationMs: number }
  | { at: number; kind: 'dtmf'; digit: string };

export interface RecordingTimeline {
  /** When the recording ends on its own (ms after it starts), or undefined if it never does. */
  endAt?: number;
  endReason?: 'dtmf' | 'silence' | 'max-duration' | 'hangup';
  events: TimelineEvent[];
  /** The caller's audio (speech and pauses) from the recording's start, by time. */
  segments: Array<{ at: number; pcm: Buffer }>;
  /** Total speech in the timeline up to `at` ms. */
  talkingMsUntil(at: number): number;
  /** The audio captured up to `at` ms, trailing silence trimmed as Asterisk does on silence stop. */
  pcmUntil(at: number): Buffer;
}

/**
 * Lays out what the caller does on a timeline and works out when Asterisk would stop the
 * recording: on the terminating DTMF, after maxSilence of continuous silence, at
 * maxDuration, or when the caller hangs up.
 */
export function planRecording(steps: CallerStep[], limits: RecordLimits): RecordingTimeline {
  const events: TimelineEvent[] = [];
  const segments: Array<{ at: number; pcm: Buffer; speech: boolean }> = [];
  let t = 0;
  let silenceSince = 0;
  let endAt: number | undefined;
  let endReason: RecordingTimeline['endReason'];
  const end = (at: number, reason: RecordingTimeline['endReason']) => {
    endAt = at;
    endReason = reason;
  };
  // Silence from `from` for `ms`: may trip the silence or duration limit inside it.
  const silenceFor = (ms: number): boolean => {
    const candidates: Array<[number, RecordingTimeline['endReason']]> = [];
    if (limits.maxSilenceMs > 0) candidates.push([silenceSince + limits.maxSilenceMs, 'silence']);
    if (limits.maxDurationMs > 0) candidates.push([limits.maxDurationMs, 'max-duration']);
    const hit = candidates.filter(([at]) => at <= t + ms).sort((a, b) => a[0] - b[0])[0];
    if (hit) {
      segments.push({ at: t, pcm: silencePcm(Math.max(0, hit[0] - t)), speech: false });
      end(hit[0], hit[1]);
      return true;
    }
    if (Number.isFinite(ms)) segments.push({ at: t, pcm: silencePcm(ms), speech: false });
    t += ms;
    return false;
  };

  for (const step of steps) {
    if ('silence' in step) {
      if (silenceFor(step.silence)) break;
    } else if ('say' in step) {
      const pcm = readWav(step.say).data;
      const ms = Math.round((pcm.length / 2 / 8000) * 1000);
      if (limits.maxDurationMs > 0 && t + ms >= limits.maxDurationMs) {
        const keep = Math.max(0, limits.maxDurationMs - t);
        segments.push({ at: t, pcm: pcm.subarray(0, Math.round((keep / 1000) * 8000) * 2), speech: true });
        events.push({ at: t, kind: 'talk-start' });
        end(limits.maxDurationMs, 'max-duration');
        break;
      }
      events.push({ at: t, kind: 'talk-start' }, { at: t + ms, kind: 'talk-end', durationMs: ms });
      segments.push({ at: t, pcm, speech: true });
      t += ms;
      silenceSince = t;
    } else if ('press' in step) {
      events.push({ at: t, kind: 'dtmf', digit: step.press });
      const stops = limits.terminateOn === 'any' || limits.terminateOn === step.press;
      if (stops && limits.terminateOn !== 'none') {
        end(t, 'dtmf');
        break;
      }
    } else {
      end(t, 'hangup');
      break;
    }
  }
  if (endAt === undefined) silenceFor(Infinity);

  const speech = segments.filter((s) => s.speech);
  return {
    endAt,
    endReason,
    events,
    segments,
    talkingMsUntil(at: number) {
      let ms = 0;
      for (const s of speech) ms += Math.max(0, Math.min(at, s.at + (s.pcm.length / 16)) - s.at);
      return Math.round(ms);
    },
    pcmUntil(at: number) {
      let cut = at;
      // On a silence stop Asterisk rewinds the trailing silence, keeping about 200 ms.
      if (endReason === 'silence' && at === endAt) cut = Math.min(at, silenceSince + 200);
      const parts: Buffer[] = [];
      for (const s of segments) {
        if (s.at >= cut) break;
        const bytes = Math.min(s.pcm.length, Math.round(((cut - s.at) / 1000) * 8000) * 2);
        parts.push(s.pcm.subarray(0, bytes));
      }
      return Buffer.concat(parts);
    },
  };
}
