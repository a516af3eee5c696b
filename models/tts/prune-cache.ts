import fs from 'node:fs/promises';
import path from 'node:path';

/** A cached prompt's file name (`<sha256>.wav`); temp files and anything else are left alone. */
const PROMPT_FILE = /^[0-9a-f]{64}\.wav$/;

export interface CacheFile {
  name: string;
  bytes: number;
  mtimeMs: number;
}

/** Which files to delete, oldest first, to bring the folder to `maxBytes` or below (pure). */
export function filesToPrune(files: readonly CacheFile[], maxBytes: number): string[] {
  let total = files.reduce((sum, f) => sum + f.bytes, 0);
  const out: string[] = [];
  for (const f of [...files].sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (total <= maxBytes) break;
    out.push(f.name);
    total -= f.bytes;
  }
  return out;
}

/** The cached prompts in `dir` and their total size. */
export async function listCacheFiles(dir: string): Promise<CacheFile[]> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => PROMPT_FILE.test(n));
  const files = await Promise.all(
    names.map(async (name) => {
      const st = await fs.stat(path.join(dir, name)).catch(() => undefined);
      return st ? { name, bytes: st.size, mtimeMs: st.mtimeMs } : undefined;
    }),
  );
  return files.filter((f): f is CacheFile => f !== undefined);
}

/**
 * Deletes the least recently used prompts until the folder holds at most `maxBytes`.
 * A prompt deleted here is simply synthesised again when next asked for, and Asterisk
 * keeps playing a file it already has open.
 */
export async function pruneCache(dir: string, maxBytes: number): Promise<{ removed: number; bytes: number }> {
  const files = await listCacheFiles(dir);
  const doomed = filesToPrune(files, maxBytes);
  await Promise.all(doomed.map((n) => fs.rm(path.join(dir, n), { force: true })));
  const gone = new Set(doomed);
  return { removed: doomed.length, bytes: files.filter((f) => !gone.has(f.name)).reduce((s, f) => s + f.bytes, 0) };
}
