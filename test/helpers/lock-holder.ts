import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';
import { projectRoot } from '../../core/config/paths.js';

export interface LockHolder {
  /**
   * Takes SQLite's write lock (`BEGIN EXCLUSIVE`); resolves once it is held. With
   * `releaseAfterMs` the holder lets it go by itself after that long (a backup that finishes).
   */
  lock(releaseAfterMs?: number): Promise<void>;
  /** Commits, releasing the lock; resolves once it is released. */
  unlock(): Promise<void>;
  stop(): void;
}

/**
 * A second process holding SQLite's write lock on `file` while the test says so: a backup
 * tool or an operator's sqlite3 shell. It has to be another process: better-sqlite3 blocks
 * its own thread while it waits for a lock, so the lock cannot come from the core's.
 */
export async function startLockHolder(file: string): Promise<LockHolder> {
  const script = `
    const db = new (require('better-sqlite3'))(process.argv[1]);
    db.pragma('busy_timeout = 30000');
    let release;
    require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const [cmd, ms] = line.split(' ');
      if (cmd === 'lock') {
        db.exec('BEGIN EXCLUSIVE');
        if (ms) release = setTimeout(() => db.exec('COMMIT'), Number(ms));
      }
      if (cmd === 'unlock') {
        clearTimeout(release);
        db.exec('COMMIT');
      }
      process.stdout.write(cmd + 'ed\\n');
    });
    process.stdout.write('ready\\n');`;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', script, file], { cwd: projectRoot() });
  const lines = readline.createInterface({ input: child.stdout });
  const replies: string[] = [];
  const waiters: Array<() => void> = [];
  lines.on('line', (l) => {
    replies.push(l);
    waiters.splice(0).forEach((w) => w());
  });
  const reply = (want: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (replies.includes(want) ? resolve() : waiters.push(check));
      child.once('exit', (code) => reject(new Error(`lock holder exited (${code})`)));
      check();
    });
  await reply('ready');
  return {
    async lock(releaseAfterMs?: number) {
      child.stdin.write(releaseAfterMs ? `lock ${releaseAfterMs}\n` : 'lock\n');
      await reply('locked');
    },
    async unlock() {
      child.stdin.write('unlock\n');
      await reply('unlocked');
    },
    stop() {
      child.kill('SIGKILL');
    },
  };
}
