import fs from 'node:fs/promises';
import path from 'node:path';

// The self-test's memory on this node, $DATA_DIR/eval/self-test.json: the engines of the last
// completed run (so a restart on the same engines does not run it again), the run in progress,
// the last failure, and the operator's acceptance of agent mode. Per node, as the hardware is.

export interface SelfTestState {
  lastCompleted: { fingerprint: string; at: string } | null;
  running: { fingerprint: string; since: string } | null;
  lastError: { fingerprint: string; at: string; message: string } | null;
  /** Agent mode accepted by an admin for the engines of `fingerprint`. */
  accepted: { fingerprint: string; at: string; by: string } | null;
}

const EMPTY: SelfTestState = { lastCompleted: null, running: null, lastError: null, accepted: null };

function selfTestStateFile(dataDir: string): string {
  return path.join(dataDir, 'eval', 'self-test.json');
}

/** The state, or an empty one when the file is missing or unreadable (a run then simply happens again). */
export async function readSelfTestState(dataDir: string): Promise<SelfTestState> {
  try {
    const data = JSON.parse(await fs.readFile(selfTestStateFile(dataDir), 'utf8')) as Partial<SelfTestState>;
    return { ...EMPTY, ...data };
  } catch {
    return { ...EMPTY };
  }
}

let writing: Promise<unknown> = Promise.resolve();

/** Changes the state, one change at a time in this process, written whole then renamed. */
export async function updateSelfTestState(dataDir: string, change: (s: SelfTestState) => SelfTestState): Promise<SelfTestState> {
  const next = writing.then(async () => {
    const file = selfTestStateFile(dataDir);
    const s = change(await readSelfTestState(dataDir));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(`${file}.tmp`, `${JSON.stringify(s, null, 2)}\n`);
    await fs.rename(`${file}.tmp`, file);
    return s;
  });
  writing = next.catch(() => undefined);
  return next;
}
