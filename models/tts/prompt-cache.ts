import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Prompt, PromptCache, SpeechPriority, TextToSpeech, Voice } from './tts.js';
import { pruneCache } from './prune-cache.js';
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
 * read-only volume), so `sound:appliance/<key>` plays `<key>.wav` from this folder.
 */
export const PROMPTS_SOUND_DIR = 'appliance';

/** Whitespace differences never make a new prompt; any other change of text does. */
export function normalisePromptText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The cache key: a change of engine, voice or text gives a new file, never a stale one. */
export function promptKey(engine: string, voice: Voice, text: string): string {
  return createHash('sha256').update(JSON.stringify([engine, voice, normalisePromptText(text)])).digest('hex');
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
   * Size the folder may reach before the least recently used prompts are deleted; unset
   * keeps everything (greetings only: one per owner and voice).
   */
  maxBytes?: number;
}

export function createPromptCache(opts: PromptCacheOptions): PromptCache {
  const dir = path.join(opts.dataDir, 'prompts');
  const inFlight = new Map<string, Promise<Prompt>>();
  const pool = opts.pool ?? localTtsPool(opts.maxConcurrent ?? 2);
  // The folder's size as last measured plus what this cache wrote since: measured again
  // (a directory scan) only when it may be over the cap.
  let knownBytes: number | undefined;

  async function keepWithinCap(added: number): Promise<void> {
    if (opts.maxBytes === undefined) return;
    knownBytes = knownBytes === undefined ? undefined : knownBytes + added;
    if (knownBytes !== undefined && knownBytes <= opts.maxBytes) return;
    knownBytes = (await pruneCache(dir, opts.maxBytes)).bytes;
  }

  async function existing(key: string, file: string): Promise<Prompt | undefined> {
    try {
      const info = await readWavInfo(file);
      if (!isTelephoneWav(info)) return undefined;
      // A use makes it recent, so pruning (by the capped agent cache sharing this folder)
      // takes prompts nobody asked for lately, never a greeting callers hear every day.
      await fs.utimes(file, new Date(), new Date()).catch(() => undefined);
      return { mediaUri: `sound:${PROMPTS_SOUND_DIR}/${key}`, file, durationMs: info.durationMs };
    } catch {
      // absent or unreadable: (re)synthesise below
    }
    return undefined;
  }

  async function make(text: string, voice: Voice, key: string, priority: SpeechPriority): Promise<Prompt> {
    const file = path.join(dir, `${key}.wav`);
    const cached = await existing(key, file);
    if (cached) return cached;
    await fs.mkdir(dir, { recursive: true });
    // Written beside the target and renamed: Asterisk never plays a half-written file,
    // and a crash mid-synthesis leaves only a dot-file that is never looked up.
    const temp = path.join(dir, `.${key}.${process.pid}.${randomBytes(4).toString('hex')}.wav`);
    try {
      // Live calls first: a preview or a greeting made ahead waits for a slot no caller needs.
      await pool.run(priority === 'call' ? 'live' : 'background', () => opts.tts.synthesize(text, voice, temp));
      const info = await readWavInfo(temp);
      if (!isTelephoneWav(info)) {
        throw new Error(
          `${opts.tts.engine} produced ${info.sampleRate} Hz, ${info.channels} channel(s), ${info.bitsPerSample}-bit audio instead of 8 kHz mono 16-bit PCM`,
        );
      }
      await fs.chmod(temp, 0o644); // the asterisk container reads it as another user
      await fs.rename(temp, file);
      await keepWithinCap((await fs.stat(file)).size);
      return { mediaUri: `sound:${PROMPTS_SOUND_DIR}/${key}`, file, durationMs: info.durationMs };
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  return {
    get(text: string, voice: Voice, priority: SpeechPriority = 'call'): Promise<Prompt> {
      const clean = normalisePromptText(text);
      if (!clean) return Promise.reject(new Error('Cannot make a prompt from empty text'));
      const key = promptKey(opts.tts.engine, voice, clean);
      // Callers asking for the same prompt at once share one synthesis.
      let pending = inFlight.get(key);
      if (!pending) {
        pending = make(clean, voice, key, priority).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
