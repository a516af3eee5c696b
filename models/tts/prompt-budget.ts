// The prompts folder's budget as pure rules: which files go when it is over its cap.

/** A cached prompt's file name (`<sha256>.wav`, or a G.711 copy of one): made from text, so it can always be made again. */
const RERENDERABLE = /^[0-9a-f]{64}\.(wav|ulaw|alaw)$/;

function isRerenderable(name: string): boolean {
  return RERENDERABLE.test(name);
}

export interface FolderFile {
  name: string;
  bytes: number;
  /** When it was last played or made (the file's mtime: a use touches it, and it survives a restart). */
  lastUsedMs: number;
}

/**
 * The files to delete, least recently used first, to bring the folder to `maxBytes` or below.
 * Every file counts towards the size, whoever wrote it; only prompts that can be made again
 * are deleted, and never one in `held` (a live call is playing it or about to). When what may
 * not be deleted is over the cap on its own, everything else goes and the folder stays over.
 */
export function chooseEvictions(files: readonly FolderFile[], maxBytes: number, held: ReadonlySet<string>): string[] {
  let total = files.reduce((sum, f) => sum + f.bytes, 0);
  const out: string[] = [];
  const candidates = files.filter((f) => isRerenderable(f.name) && !held.has(f.name)).sort((a, b) => a.lastUsedMs - b.lastUsedMs || a.name.localeCompare(b.name));
  for (const f of candidates) {
    if (total <= maxBytes) break;
    out.push(f.name);
    total -= f.bytes;
  }
  return out;
}
