import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readWavInfo } from '../audio/wav-file.js';
import { isTelephoneWav } from '../audio/wav-header.js';
import { g711CopyNames, writeG711Copies } from './g711-copies.js';
import { PROMPTS_SOUND_DIR } from './prompt-cache.js';
import type { Prompt } from './tts.js';

// An owner's own recording played by Asterisk (the voicemail greeting, issue 57): Asterisk sees
// only $DATA_DIR/prompts (the compose prompts volume), not the owner's folder of recordings, so
// the stored WAV (already 8 kHz mono 16-bit: models/audio/greeting-recording.ts) is copied there
// with its G.711 copies, as a synthesised prompt is. The copy is made when a call needs it and
// again if the prompts folder's cap took it since; `key` names the recording's content, so a
// replaced recording is a new sound and an old one is never played.

/** The prompt for the recording `file` under the sound name `key`; rejects if the recording is gone or unusable. */
export async function recordedPrompt(dataDir: string, file: string, key: string): Promise<Prompt> {
  const dir = path.join(dataDir, 'prompts');
  const target = path.join(dir, `${key}.wav`);
  const found = await readWavInfo(target).catch(() => undefined);
  if (found && isTelephoneWav(found)) {
    await fs.utimes(target, new Date(), new Date()).catch(() => undefined); // recent: the cap takes others first
    return { mediaUri: `sound:${PROMPTS_SOUND_DIR}/${key}`, file: target, durationMs: found.durationMs };
  }
  const wav = await fs.readFile(file);
  const info = await readWavInfo(file);
  if (!isTelephoneWav(info)) throw new Error(`the recording ${path.basename(file)} is not 8 kHz mono 16-bit PCM`);
  await fs.mkdir(dir, { recursive: true });
  // The copies first, then the WAV renamed into place: Asterisk never opens half a file.
  await writeG711Copies(wav, dir, key);
  const temp = path.join(dir, `.${key}.${process.pid}.${randomBytes(4).toString('hex')}.wav`);
  try {
    await fs.writeFile(temp, wav, { mode: 0o644 });
    await fs.chmod(temp, 0o644); // the asterisk container reads it as another user
    await fs.rename(temp, target);
  } finally {
    await fs.rm(temp, { force: true });
  }
  return { mediaUri: `sound:${PROMPTS_SOUND_DIR}/${key}`, file: target, durationMs: info.durationMs };
}

/** Removes the sound made from a recording (replaced or deleted): nothing plays it again. */
export async function discardRecordedPrompt(dataDir: string, key: string): Promise<void> {
  const dir = path.join(dataDir, 'prompts');
  await Promise.all([`${key}.wav`, ...g711CopyNames(key)].map((name) => fs.rm(path.join(dir, name), { force: true })));
}
