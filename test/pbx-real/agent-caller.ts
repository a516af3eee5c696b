import fs from 'node:fs';
import { waitUntil } from '../helpers/wait.js';
import { envelope, envelopeMatch, readWavSamples, speech, writeWav } from './audio.js';
import type { RealPbx } from './harness.js';
import type { HeardAudio } from './heard-audio.js';
import type { SipCall } from './sipp.js';

// A caller talking with the AI agent on a real Asterisk: what they say (spoken audio, with the
// Whisper double told the words) and what they hear (the agent's voice, matched by envelope).

/**
 * Waits until the caller has heard `text` in the agent's voice, whole (the envelope of what
 * arrived since `from` matches the prompt's), then until the agent has been quiet `quietMs`.
 * `language` and `voice`: the prompt's (English and female by default).
 * Under load the agent may pause between sentences, so hearing is the condition, not quiet.
 */
export async function hearsAgent(h: RealPbx, call: { media: HeardAudio }, from: number, text: string, quietMs = 600, language?: string, voice: 'female' | 'male' = 'female'): Promise<number> {
  // The agent synthesises a line whole, sentence by sentence, or a long first sentence clause
  // by clause (to start speaking sooner); each way has its own prosody. The caller heard
  // `text` when what arrived matches it synthesised in one of those ways.
  const ways = [[text], text.split(/(?<=[.?!])\s+/), text.split(/(?<=[.?!,;:])\s+/)];
  const references: Int16Array[] = [];
  for (const pieces of ways) {
    const audio = await Promise.all(pieces.map(async (p) => readWavSamples(await h.promptFile(p, voice, language))));
    const joined = new Int16Array(audio.reduce((n, a) => n + a.length, 0));
    audio.reduce((at, a) => (joined.set(a, at), at + a.length), 0);
    references.push(joined);
  }
  await hearsAudio(h, call.media, from, references, `"${text}"`);
  return waitUntil(() => call.media.silenceStartedAfter(from, quietMs) ?? Promise.reject(new Error('still speaking')), 30_000, 20);
}

/**
 * Waits until `media` has heard one of `references` whole since `from` (an envelope match of at
 * least the listener's `hearsAt`).
 * If it never does, what was heard, what was expected and the core's log are left in
 * test-results/pbx-real/ to listen to and read.
 */
export async function hearsAudio(h: RealPbx, media: HeardAudio, from: number, references: Int16Array[], what: string, timeoutMs = 60_000): Promise<void> {
  let score = -1;
  try {
    await waitUntil(() => {
      const heard = media.heard(from);
      score = Math.max(...references.map((r) => envelopeMatch(r, heard).score));
      if (score < media.hearsAt) throw new Error(`${what} was not heard (best match ${score.toFixed(2)})`);
    }, timeoutMs, 250);
  } catch (err) {
    const at = Date.now();
    fs.mkdirSync('test-results/pbx-real', { recursive: true });
    writeWav(`test-results/pbx-real/heard-${at}.wav`, media.heard(from));
    writeWav(`test-results/pbx-real/expected-${at}.wav`, references[0]!);
    fs.writeFileSync(`test-results/pbx-real/core-log-${at}.ndjson`, h.coreLog.slice(-300).map((l) => JSON.stringify(l)).join('\n'));
    throw err;
  }
}

/** The caller says `text`; resolves when the last frame has been sent (`endedAt`, on the caller's sound card). */
export async function askAgent(h: RealPbx, call: SipCall, text: string): Promise<{ words: Int16Array; endedAt: number }> {
  h.whisper.defaultTranscript = text;
  const words = speech(text);
  await call.media.say(words);
  return { words, endedAt: call.media.sentAt };
}

// Timing at the caller, for figures (benches, and what tests print): when the caller's words
// ended and when the agent's audio reached their ear.

/** espeak-ng ends its audio with quiet: the caller's speech ended that long before the last frame left. */
export function trailingQuietMs(words: Int16Array): number {
  const levels = envelope(words);
  let n = 0;
  while (n < levels.length && levels[levels.length - 1 - n]! < 250) n++;
  return n * 20;
}

/** The caller says `words`; resolves with when their speech ended. */
export async function sayAndMark(call: SipCall, words: Int16Array): Promise<number> {
  await call.media.say(words);
  return call.media.sentAt - trailingQuietMs(words);
}

/** When the first agent audio after `since` reached the caller. */
export function firstAudioAfter(call: SipCall, since: number, timeoutMs = 60_000): Promise<number> {
  return waitUntil(() => call.media.firstSoundAfter(since) ?? Promise.reject(new Error('no agent audio yet')), timeoutMs, 10);
}

/** Waits for the agent's turn to finish: it spoke after `since`, then `quietMs` of quiet. */
export function agentDone(call: SipCall, since: number, quietMs = 1500): Promise<number> {
  return waitUntil(() => (call.media.firstSoundAfter(since) !== undefined ? call.media.silenceStartedAfter(since, quietMs) : undefined) ?? Promise.reject(new Error('agent speaking')), 120_000, 20);
}
