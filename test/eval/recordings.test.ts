import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTelephoneWav } from '../../models/audio/wav-header.js';
import { readWavInfo } from '../../models/audio/wav-file.js';
import { audioFingerprint, makeRecordings } from '../../core/quality/evaluation/audio.js';
import { loadEvalSet } from '../../core/quality/evaluation/set.js';

// The set's recordings are made at eval time, not committed: they must come out the same
// every time from the same text and tools, or reports could not be compared.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-recordings-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the evaluation set’s recordings', () => {
  it('come out byte for byte the same when made again, noise included, as telephone audio', { timeout: 120_000 }, async () => {
    const { messages } = await loadEvalSet();
    const some = [messages.find((m) => !m.noise)!, ...['whitenoise', 'pinknoise', 'brownnoise'].map((c) => messages.find((m) => m.noise?.colour === c)!)];
    const first = await makeRecordings(some, path.join(root, 'a'));
    const second = await makeRecordings(some, path.join(root, 'b'));
    expect(second.map((r) => r.sha256)).toEqual(first.map((r) => r.sha256));
    expect(audioFingerprint(second)).toBe(audioFingerprint(first));
    for (const r of first) expect(isTelephoneWav(await readWavInfo(r.file))).toBe(true);
    // The noise is there: the same words with and without it are different audio.
    const quiet = await makeRecordings([{ ...some[1]!, noise: null }], path.join(root, 'c'));
    expect(quiet[0]!.sha256).not.toBe(first[1]!.sha256);
  });
});
