import fs from 'node:fs/promises';
import { parseWavHeader, type WavInfo } from './wav-header.js';

/** Reads just enough of a WAV file to describe it (extra chunks such as LIST fit in 64 KB). */
export async function readWavInfo(file: string): Promise<WavInfo> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await handle.read(head, 0, head.length, 0);
    return parseWavHeader(head, size);
  } finally {
    await handle.close();
  }
}
