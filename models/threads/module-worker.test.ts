import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleWorker } from './module-worker.js';

// A built module (.js beside its caller) run in a thread, below normal priority when asked:
// the thread's own nice value, not the process's (Linux).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'module-worker-'));
fs.writeFileSync(path.join(dir, 'probe.js'), "import os from 'node:os';\nimport { parentPort } from 'node:worker_threads';\nparentPort.postMessage(os.getPriority());\n");
const caller = pathToFileURL(path.join(dir, 'caller.js')).href;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const priorityIn = (lowPriority: boolean) =>
  new Promise<number>((resolve, reject) => {
    const worker = moduleWorker(caller, 'probe', { lowPriority });
    worker.once('message', (p: number) => {
      resolve(p);
      void worker.terminate();
    });
    worker.once('error', reject);
  });

describe.runIf(process.platform === 'linux')('moduleWorker', () => {
  it('runs the sibling .js module; lowPriority lowers that thread alone', async () => {
    const before = os.getPriority();
    expect(await priorityIn(false)).toBe(before);
    expect(await priorityIn(true)).toBe(os.constants.priority.PRIORITY_BELOW_NORMAL);
    expect(os.getPriority()).toBe(before);
  });
});
