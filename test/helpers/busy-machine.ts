import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

// Keeps every core of the machine busy while a test runs (a separate process per core spinning
// on the CPU), so what the test proves holds on a loaded box, not only on an idle one. The
// spinners run at the lowest priority: they take every idle moment of the CPU, yet test files
// running beside this one in the same run are not starved past their own time limits.

export interface BusyMachine {
  stop(): Promise<void>;
}

export function busyMachine(cores = os.availableParallelism()): BusyMachine {
  const spinners: ChildProcess[] = [];
  for (let i = 0; i < cores; i++) {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    if (child.pid) os.setPriority(child.pid, 19);
    spinners.push(child);
  }
  return {
    async stop() {
      await Promise.all(spinners.map((child) => new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      })));
    },
  };
}
