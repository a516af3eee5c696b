import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AriRest } from '../ari/types.js';
import { localDisk } from './disk.js';
import { storeRecording } from './store-recording.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('storeRecording', () => {
  it('two stores of one recording at once both succeed, leaving the whole file and no temp file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-recording-'));
    dirs.push(dir);
    const wav = Buffer.alloc(44 + 64_000, 1);
    wav.write('RIFF', 0);
    wav.writeUInt32LE(wav.length - 8, 4);
    wav.write('WAVEfmt ', 8);
    wav.write('data', 36);
    wav.writeUInt32LE(wav.length - 44, 40);
    // Asterisk answers both fetches; each store then writes and renames on its own.
    const rest = { fetchStoredRecording: async () => Buffer.from(wav) } as unknown as AriRest;
    const results = await Promise.allSettled([0, 1, 2].map(() => storeRecording(rest, localDisk, 'call-7', dir, 'call-7.wav')));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(fs.readdirSync(dir)).toEqual(['call-7.wav']);
    expect(fs.readFileSync(path.join(dir, 'call-7.wav')).length).toBe(wav.length);
  });
});
