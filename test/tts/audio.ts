import fs from 'node:fs';
import { readWavInfo } from '../../models/audio/wav-file.js';
import type { WavInfo } from '../../models/audio/wav-header.js';

/** Describes a WAV file and checks its bytes really hold the audio its header claims. */
export async function describeWav(file: string): Promise<WavInfo & { fileSize: number }> {
  const info = await readWavInfo(file);
  const fileSize = fs.statSync(file).size;
  if (info.dataOffset + info.dataBytes > fileSize) throw new Error(`${file}: header claims more audio than the file holds`);
  return { ...info, fileSize };
}
