import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

// A test server run from a temp folder (the CalDAV servers): stopped for a while and started
// again on the same port with the same data, or stopped for good with its folder removed.

export interface ServedProcess {
  halt(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function halt(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** `run` starts the server and resolves once it answers. */
export async function servedProcess(dir: string, run: () => Promise<ChildProcess>): Promise<ServedProcess> {
  let child = await run();
  return {
    halt: () => halt(child),
    async restart() {
      await halt(child);
      child = await run();
    },
    async stop() {
      await halt(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
