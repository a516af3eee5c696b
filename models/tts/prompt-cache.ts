import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Prompt, PromptCache, SpeechPriority, TextToSpeech, Voice } from './tts.js';
import { createPromptFolder, type PromptFolder } from './prompt-folder.js';
import { hasG711Copies, writeG711Copies } from './g711-copies.js';
import { readWavInfo } from '../audio/wav-file.js';
import { isTelephoneWav } from '../audio/wav-header.js';
import { EnginePool } from '../pool/engine-pool.js';

/**
 * The TTS engine as a pool of one local endpoint: its slots bound the syntheses at once. A
 * failed synthesis is the text's or the installation's, never a host gone, so nothing is taken out.
 */
export function localTtsPool(slots: number): EnginePool {
  return new EnginePool({ engine: 'tts', endpoints: [{ url: 'local', slots }], backoffMs: () => 0, isEndpointFault: () => false, keepLastSlotForLive: true });
}

/**
 * Asterisk sees $DATA_DIR/prompts as /var/lib/asterisk/sounds/appliance (a shared
 * read-only volume), so `sound:appliance/<key>` plays `<key>.wav` from this folder, or
 * its G.711 copy in the call's own codec (g711-copies.ts).
 */
export const PROMPTS_SOUND_DIR = 'appliance';

/** Whitespace differences never make a new prompt; any other change of text does. */
export function normalisePromptText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The cache key: a change of engine, voice or text gives a new file, never a stale one. Another
 * language than English is keyed by the voice model that speaks it (`voiceName`), so a Piper
 * voice installed later replaces espeak-ng's prompts; English keys are as they always were.
 */
export function promptKey(engine: string, voice: Voice, text: string, language?: string, voiceName?: string): string {
  const who = language && language !== 'en' ? [voiceName ?? `${engine}:${voice}`, language] : [engine, voice];
  return createHash('sha256').update(JSON.stringify([...who, normalisePromptText(text)])).digest('hex');
}

export interface PromptCacheOptions {
  dataDir: string;
  tts: TextToSpeech;
  /**
   * The TTS engine's slots (TTS_SLOTS), shared by every cache over the same engine; without
   * one the cache has its own of `maxConcurrent` slots (default 2: engines are CPU-bound and
   * the box has few cores).
   */
  pool?: EnginePool;
  maxConcurrent?: number;
  /**
   * The accountant of $DATA_DIR/prompts, shared by every cache over it (its cap counts them
   * all); without one the cache keeps everything it makes.
   */
  folder?: PromptFolder;
}

/** A prompt cache that can also forget a prompt nobody will ask for again (a replaced greeting). */
export interface PromptStore extends PromptCache {
  /** Deletes the prompt for (text, voice), once no live call is about to play it. */
  discard(text: string, voice: Voice): Promise<void>;
}

/**
 * How long after a live call is handed a prompt it stays safe from the cap, beyond its own
 * length: the time Asterisk may take to start it (say() waits as long before giving up).
 */
const LIVE_PLAY_GRACE_MS = 30_000;

export function createPromptCache(opts: PromptCacheOptions): PromptStore {
  const dir = path.join(opts.dataDir, 'prompts');
  const folder = opts.folder ?? createPromptFolder({ dir });
  const inFlight = new Map<string, Promise<Prompt>>();
  const pool = opts.pool ?? localTtsPool(opts.maxConcurrent ?? 2);
  // Prompts whose G.711 copies were seen or written by this process: checked once, not per call.
  const withCopies = new Set<string>();

  async function existing(key: string, file: string): Promise<Prompt | undefined> {
    try {
      const info = await readWavInfo(file);
      if (!isTelephoneWav(info)) return undefined;
      if (!withCopies.has(key)) {
        // Made before the copies were written (or they were removed): add them now.
        if (!(await hasG711Copies(dir, key))) await writeG711Copies(await fs.readFile(file), dir, key);
        withCopies.add(key);
      }
      // A use makes it recent, so the folder's cap takes prompts nobody asked for lately,
      // never a greeting callers hear every day.
      await fs.utimes(file, new Date(), new Date()).catch(() => undefined);
      return { mediaUri: `sound:${PROMPTS_SOUND_DIR}/${key}`, file, durationMs: info.durationMs };
    } catch {
      // absent or unreadable: (re)synthesise below
    }
    return undefined;
  }

  async function make(text: string, voice: Voice, key: string, priority: SpeechPriority, language: string | undefined, chosen: string | undefined): Promise<Prompt> {
    const file = path.join(dir, `${key}.wav`);
    const cached = await existing(key, file);
    if (cached) return cached;
    await fs.mkdir(dir, { recursive: true });
    // Written beside the target and renamed: Asterisk never plays a half-written file,
    // and a crash mid-synthesis leaves only a dot-file that is never looked up.
    const temp = path.join(dir, `.${key}.${process.pid}.${randomBytes(4).toString('hex')}.wav`);
    try {
      // Live calls first: a preview or a greeting made ahead waits for a slot no caller needs.
      await pool.run(priority === 'call' ? 'live' : 'background', () => opts.tts.synthesize(text, voice, temp, undefined, language, chosen));
      const info = await readWavInfo(temp);
      if (!isTelephoneWav(info)) {
        throw new Error(
          `${opts.tts.engine} produced ${info.sampleRate} Hz, ${info.channels} channel(s), ${info.bitsPerSample}-bit audio instead of 8 kHz mono 16-bit PCM`,
        );
      }
      // The copies first: by the time the WAV appears Asterisk finds the call's own codec beside it.
      await writeG711Copies(await fs.readFile(temp), dir, key);
      withCopies.add(key);
      await fs.chmod(temp, 0o644); // the asterisk container reads it as another user
      await fs.rename(temp, file);
      // A prompt's size is its WAV and its two copies (each half the WAV's audio).
      await folder.added((await fs.stat(file)).size * 2);
      return { mediaUri: `sound:${PROMPTS_SOUND_DIR}/${key}`, file, durationMs: info.durationMs };
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  return {
    async get(text: string, voice: Voice, priority: SpeechPriority = 'call', language?: string, chosen?: string): Promise<Prompt> {
      const clean = normalisePromptText(text);
      if (!clean) throw new Error('Cannot make a prompt from empty text');
      const key = promptKey(opts.tts.engine, voice, clean, language, opts.tts.voiceName?.(voice, language, chosen));
      // Nothing deletes the file between finding (or making) it and handing it over...
      const release = folder.hold(`${key}.wav`);
      try {
        // Callers asking for the same prompt at once share one synthesis.
        let pending = inFlight.get(key);
        if (!pending) {
          pending = make(clean, voice, key, priority, language, chosen).finally(() => inFlight.delete(key));
          inFlight.set(key, pending);
        }
        const prompt = await pending;
        // ...nor, for a live call, before Asterisk has played it to the end.
        if (priority === 'call') folder.lease(`${key}.wav`, prompt.durationMs + LIVE_PLAY_GRACE_MS);
        return prompt;
      } finally {
        release();
      }
    },
    voiceName: (voice, language, chosen) => opts.tts.voiceName?.(voice, language, chosen),
    voices: (language) => opts.tts.voices?.(language) ?? [],
    async discard(text: string, voice: Voice): Promise<void> {
      const clean = normalisePromptText(text);
      if (clean) await folder.discard(`${promptKey(opts.tts.engine, voice, clean)}.wav`);
    },
  };
}
