import fs from 'node:fs/promises';
import path from 'node:path';
import { AriNotFoundError, type AriRest } from '../ari/types.js';

/**
 * Copies a finished recording from Asterisk into $DATA_DIR/recordings and only then deletes
 * it on Asterisk: written to a temp file, fsync'd, renamed, and the folder fsync'd, so a
 * power cut never leaves a half file under the final name nor loses the only copy.
 * Uses recordings.getStoredFile (a Buffer), never StoredRecording#getStoredFile (crashes).
 */
export async function storeRecording(rest: AriRest, name: string, dir: string, fileName: string, attempts = 3): Promise<number> {
  let data: Buffer | undefined;
  for (let i = 1; ; i++) {
    try {
      data = await rest.fetchStoredRecording(name);
      break;
    } catch (err) {
      if (err instanceof AriNotFoundError || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 250 * 2 ** i));
    }
  }
  await fs.mkdir(dir, { recursive: true });
  const final = path.join(dir, fileName);
  const temp = path.join(dir, `.${fileName}.${process.pid}.part`);
  const file = await fs.open(temp, 'w', 0o640);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  await fs.rename(temp, final);
  const folder = await fs.open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
  return data.length;
}
