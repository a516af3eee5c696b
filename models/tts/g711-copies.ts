import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { encodeG711, type G711Law } from '../audio/g711.js';
import { parseWavHeader } from '../audio/wav-header.js';

/**
 * The copies of a prompt kept beside its `<key>.wav`, one per G.711 law: Asterisk's format_pcm
 * reads `.ulaw` and `.alaw` as raw G.711 at 8 kHz. Of a sound's files Asterisk opens the one its
 * channel can write with the least translation (main/file.c: ast_openstream_full sets the write
 * format from the formats found, then opens the file in that format), so on a G.711 trunk a
 * greeting plays in the call's own codec, with no slin → G.711 translator run on every 20 ms
 * frame of every call (`core show channel` then reads "WriteTranscode: No").
 */
const G711_COPIES: readonly G711Law[] = ['ulaw', 'alaw'];

/** `<stem>.ulaw` and `<stem>.alaw` for a prompt named `<stem>.wav` (what the folder deletes with it). */
export const g711CopyNames = (stem: string) => G711_COPIES.map((law) => `${stem}.${law}`);

/**
 * Writes the G.711 copies of `wav` (8 kHz mono 16-bit PCM) as `<stem>.ulaw` / `<stem>.alaw` in
 * `dir`. Each is written beside its target and renamed, so Asterisk never opens half a file.
 */
export async function writeG711Copies(wav: Buffer, dir: string, stem: string): Promise<void> {
  const info = parseWavHeader(wav, wav.length);
  const data = wav.subarray(info.dataOffset, info.dataOffset + (info.dataBytes & ~1));
  const samples = new Int16Array(data.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
  for (const law of G711_COPIES) {
    const file = path.join(dir, `${stem}.${law}`);
    const temp = path.join(dir, `.${stem}.${process.pid}.${randomBytes(4).toString('hex')}.${law}`);
    try {
      await fs.writeFile(temp, encodeG711(law, samples));
      await fs.chmod(temp, 0o644); // the asterisk container reads it as another user, whatever the umask
      await fs.rename(temp, file);
    } finally {
      await fs.rm(temp, { force: true });
    }
  }
}

/** Whether both copies are there (a prompt made before they were written gets them on its next use). */
export async function hasG711Copies(dir: string, stem: string): Promise<boolean> {
  const found = await Promise.all(g711CopyNames(stem).map((name) => fs.access(path.join(dir, name)).then(() => true, () => false)));
  return found.every(Boolean);
}
