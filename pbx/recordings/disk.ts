import fs from 'node:fs/promises';

/**
 * Where stored recordings are written: the one seam between the recordings folder and the
 * file system, passed in (PbxOptions.recordingDisk), so a test can make the disk fill up
 * (ENOSPC) or fail (EIO) exactly there, as no CI machine can mount a full tmpfs on demand.
 */
export interface RecordingDisk {
  /** Creates `file` (which must not exist), writes `data` and fsyncs it. Throws as fs does (ENOSPC, EIO…). */
  writeNewFile(file: string, data: Buffer): Promise<void>;
}

export const localDisk: RecordingDisk = {
  async writeNewFile(file, data) {
    const handle = await fs.open(file, 'wx', 0o640);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};
