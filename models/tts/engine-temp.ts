import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Runs `work` with a fresh temp .wav path for an engine's raw output, always removed afterwards. */
export async function withRawWav<T>(prefix: string, work: (rawFile: string) => Promise<T>): Promise<T> {
  const raw = path.join(os.tmpdir(), `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}.wav`);
  try {
    return await work(raw);
  } finally {
    await fs.rm(raw, { force: true });
  }
}
