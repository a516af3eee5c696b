import fs from 'node:fs/promises';

/**
 * Where stored recordings are written: the one seam between the recordings folder and the
 * file system, so a test can make the disk fill up (ENOSPC) or fail (EIO) exactly there,
 * as no CI machine can mount a full tmpfs on demand.
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

let current: RecordingDisk = localDisk;

export function recordingDisk(): RecordingDisk {
  return current;
}

/** Replaces the disk (tests); `undefined` puts the real one back. */
export function useRecordingDisk(disk: RecordingDisk | undefined): void {
  current = disk ?? localDisk;
}
