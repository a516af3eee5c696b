import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const consoleDist = path.join(repoRoot, 'console', 'dist');

/** Newest modification time under a path (file or folder), ignoring nothing: sources only are passed in. */
function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), st.mtimeMs);
}

function isStale(): boolean {
  const built = path.join(consoleDist, 'index.html');
  if (!fs.existsSync(built)) return true;
  const sources = ['console/src', 'console/public', 'console/index.html', 'console/vite.config.ts', 'contract'].map((p) => newest(path.join(repoRoot, p)));
  return Math.max(...sources) > fs.statSync(built).mtimeMs;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The e2e tests drive the real built console. Build it when it is missing or older than
 * its sources. A lock directory keeps two test workers from building at once; the one
 * that waited finds the build fresh and skips it.
 */
export function ensureConsoleBuilt(): string {
  if (!isStale()) return consoleDist;
  const lock = path.join(repoRoot, 'node_modules', '.console-build.lock');
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock left by a crashed run is older than any real build.
      if (fs.existsSync(lock) && Date.now() - fs.statSync(lock).mtimeMs > 5 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      pause(250);
    }
  }
  try {
    // vitest sets NODE_ENV=test, which would give Vite React's development build: test what ships.
    if (isStale())
      execSync('npx vite build --config console/vite.config.ts --logLevel warn', {
        cwd: repoRoot,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  return consoleDist;
}
