import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { backoffDelayMs, type BackoffPolicy } from '../../core/ports/retry.js';
import { AriNotFoundError, type AriRest } from '../ari/types.js';
import type { RecordingDisk } from './disk.js';
import { repairWavSizes } from './wav-repair.js';

/** Fetching the file again when Asterisk refused it: 500 ms, then 1 s, doubling to 4 s. */
const FETCH_RETRY: BackoffPolicy = { baseMs: 500, maxMs: 4_000 };

/**
 * Copies a finished recording from Asterisk into $DATA_DIR/recordings. The caller deletes
 * it on Asterisk only after this resolved and the call row names the file: written to a
 * temp file, fsync'd, renamed, and the folder fsync'd, so a power cut never leaves a half
 * file under the final name nor loses the only copy. A failed write (disk full) removes its
 * temp file, so a retry does not find the disk fuller still.
 * Uses recordings.getStoredFile (a Buffer), never StoredRecording#getStoredFile (crashes).
 * A WAV whose size fields an Asterisk crash left at zero is mended before it is written.
 */
export async function storeRecording(rest: AriRest, disk: RecordingDisk, name: string, dir: string, fileName: string, attempts = 3): Promise<number> {
  let data: Buffer | undefined;
  for (let i = 1; ; i++) {
    try {
      // A file cut short by an Asterisk crash has zero size fields: stored with them mended.
      data = repairWavSizes(await rest.fetchStoredRecording(name));
      break;
    } catch (err) {
      if (err instanceof AriNotFoundError || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, backoffDelayMs(i, FETCH_RETRY)));
    }
  }
  await fs.mkdir(dir, { recursive: true });
  const final = path.join(dir, fileName);
  // A temp file of this store's own: two stores of one recording at once (a reconnection's
  // reconciliation beside the call's own finisher, seen in a cluster test) each write their
  // own copy and the last rename wins; one shared name let each remove the other's file.
  const temp = path.join(dir, `.${fileName}.${randomUUID()}.part`);
  try {
    await disk.writeNewFile(temp, data);
    await fs.rename(temp, final);
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  const folder = await fs.open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
  return data.length;
}

/** True when the recording is already in the folder (stored before a crash or a lost row write). */
export async function alreadyStored(dir: string, fileName: string): Promise<boolean> {
  try {
    return (await fs.stat(path.join(dir, fileName))).size > 0;
  } catch {
    return false;
  }
}
