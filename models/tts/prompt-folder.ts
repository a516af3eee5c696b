import fs from 'node:fs/promises';
import path from 'node:path';
import { chooseEvictions, type FolderFile } from './prompt-budget.js';
import { g711CopyNames } from './g711-copies.js';

export interface PromptFolderOptions {
  /** $DATA_DIR/prompts: every prompt cache over it shares this one accountant. */
  dir: string;
  /** The size the folder may reach before the least recently used prompts go; unset = no cap. */
  maxBytes?: number;
  /** How often `start()` measures the folder again (files written or removed by others). */
  measureEveryMs?: number;
  now?: () => number;
  /** A periodic measurement that failed (the folder unreadable): told, never thrown. */
  onError?: (err: unknown) => void;
}

export interface PromptFolder {
  readonly dir: string;
  /** Keeps `name` from deletion until the returned function is called (a lookup or synthesis under way). */
  hold(name: string): () => void;
  /** Keeps `name` from deletion for `ms` more: a live call is about to play it, or playing it. */
  lease(name: string, ms: number): void;
  /** This accountant's caches wrote `bytes`: the folder is measured again when that may take it over its cap. */
  added(bytes: number): Promise<void>;
  /** Deletes `name` now, or as soon as no live call needs it (a greeting that was replaced). */
  discard(name: string): Promise<void>;
  /** Scans the folder and deletes the least recently used prompts down to the cap. */
  measure(): Promise<{ bytes: number; removed: string[] }>;
  /** Measures now and every `measureEveryMs`: others write to the folder too. */
  start(): void;
  stop(): void;
}

async function listFolder(dir: string): Promise<FolderFile[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(
    names.map(async (name) => {
      const st = await fs.stat(path.join(dir, name)).catch(() => undefined);
      return st?.isFile() ? { name, bytes: st.size, lastUsedMs: st.mtimeMs } : undefined;
    }),
  );
  return withCopiesCounted(files.filter((f): f is FolderFile => f !== undefined));
}

/** A prompt's G.711 copies count (and go) with its WAV; a copy whose WAV is gone stands alone. */
function withCopiesCounted(files: FolderFile[]): FolderFile[] {
  const byName = new Map(files.map((f) => [f.name, f]));
  const copies = new Set<string>();
  for (const f of files) {
    if (!f.name.endsWith('.wav')) continue;
    for (const copy of g711CopyNames(f.name.slice(0, -'.wav'.length))) {
      const c = byName.get(copy);
      if (!c) continue;
      f.bytes += c.bytes;
      copies.add(copy);
    }
  }
  return files.filter((f) => !copies.has(f.name));
}

/** A prompt `<key>.wav` and the copies made beside it. */
const withItsCopies = (name: string) => (name.endsWith('.wav') ? [name, ...g711CopyNames(name.slice(0, -'.wav'.length))] : [name]);

/**
 * One size accountant for the prompts folder: the greetings the PBX plays and the agent's
 * sentences share it, so one cap counts everybody's files, however they got there.
 */
export function createPromptFolder(opts: PromptFolderOptions): PromptFolder {
  const now = opts.now ?? Date.now;
  const holds = new Map<string, number>();
  const leases = new Map<string, number>();
  const doomed = new Set<string>();
  // Size at the last measurement plus what was written since; unknown until first measured.
  let knownBytes: number | undefined;
  let measuring: Promise<{ bytes: number; removed: string[] }> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const isHeld = (name: string) => (holds.get(name) ?? 0) > 0 || (leases.get(name) ?? 0) > now();
  const heldNames = () => {
    for (const [name, until] of leases) if (until <= now()) leases.delete(name);
    return new Set([...holds.keys(), ...leases.keys()]);
  };
  const told = (err: unknown) => opts.onError?.(err);
  const remove = (name: string) => Promise.all(withItsCopies(name).map((n) => fs.rm(path.join(opts.dir, n), { force: true })));

  /** Discarded files whose last hold or lease has ended. */
  async function settle(): Promise<void> {
    for (const name of [...doomed]) {
      if (isHeld(name)) continue;
      doomed.delete(name);
      await remove(name);
    }
  }

  async function scan(): Promise<{ bytes: number; removed: string[] }> {
    await settle();
    const files = await listFolder(opts.dir);
    const removed = opts.maxBytes === undefined ? [] : chooseEvictions(files, opts.maxBytes, heldNames());
    await Promise.all(removed.map(remove));
    const gone = new Set(removed);
    knownBytes = files.filter((f) => !gone.has(f.name)).reduce((s, f) => s + f.bytes, 0);
    return { bytes: knownBytes, removed };
  }

  const folder: PromptFolder = {
    dir: opts.dir,
    hold(name) {
      holds.set(name, (holds.get(name) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (holds.get(name) ?? 1) - 1;
        if (left > 0) holds.set(name, left);
        else holds.delete(name);
        if (doomed.has(name)) void settle().catch(told);
      };
    },
    lease(name, ms) {
      const until = now() + ms;
      if ((leases.get(name) ?? 0) < until) leases.set(name, until);
    },
    async added(bytes) {
      if (opts.maxBytes === undefined) return;
      if (knownBytes !== undefined) {
        knownBytes += bytes;
        if (knownBytes <= opts.maxBytes) return;
      }
      await folder.measure();
    },
    async discard(name) {
      doomed.add(name);
      if (isHeld(name)) {
        // Tried again once the lease has run out (a release retries at once).
        const wait = Math.max(0, (leases.get(name) ?? now()) - now()) + 10;
        setTimeout(() => void settle().catch(told), wait).unref();
        return;
      }
      await settle();
    },
    measure() {
      measuring ??= scan().finally(() => {
        measuring = undefined;
      });
      return measuring;
    },
    start() {
      if (timer) return;
      void folder.measure().catch(told);
      if (opts.measureEveryMs) timer = setInterval(() => void folder.measure().catch(told), opts.measureEveryMs).unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return folder;
}
