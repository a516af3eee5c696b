import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

// Keeps every core of the machine busy while a test runs (a separate process per core spinning
// on the CPU), so what the test proves holds on a loaded box, not only on an idle one.

export interface BusyMachine {
  stop(): Promise<void>;
}

export function busyMachine(cores = os.availableParallelism()): BusyMachine {
  const spinners: ChildProcess[] = [];
  for (let i = 0; i < cores; i++) spinners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
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
