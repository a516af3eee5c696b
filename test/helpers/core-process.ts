import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ADMIN } from './accounts.js';
import { adminHealth } from './health.js';
import { waitUntil } from './wait.js';

export interface CoreProcess {
  child: ChildProcess;
  port: number;
  /** Everything the process printed (pino JSON lines and plain text). */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/**
 * How long a core may take to listen, and then to connect its PBX link. Seconds when the machine
 * is quiet; a cold start (tsx compiling the core) beside other work at load 20 took over 30 s,
 * and the cluster suite starts two.
 */
const START_BOUND_MS = 180_000;

/**
 * Runs the real entry point (root/main.ts) as a child process on `dataDir` and resolves once
 * it listens and its PBX link is connected: what an operator's container runs.
 */
export async function startCoreProcess(dataDir: string, env: Record<string, string>, opts: { pbx?: boolean } = {}): Promise<CoreProcess> {
  const fullEnv: Record<string, string | undefined> = { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TTS_ENGINE: 'espeak-ng', ...env };
  const child = spawn(process.execPath, ['--import', 'tsx', 'root/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await waitUntil(() => {
    if (child.exitCode !== null) throw new Error(`core exited (${child.exitCode}):\n${out.slice(-2000)}`);
    const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
    if (!m) throw new Error('not listening yet');
    return Number(m[1]);
  }, START_BOUND_MS, 100);
  if (opts.pbx !== false) {
    // The PBX link's report is for an administrator (signed out, /healthz says only ok).
    const health = await adminHealth(`http://127.0.0.1:${port}`, { email: fullEnv.ADMIN_EMAIL!, password: fullEnv.ADMIN_PASSWORD! });
    await waitUntil(async () => {
      const pbx = (await health()).components.pbx;
      if (!pbx?.detail?.startsWith('connected')) throw new Error(`PBX not connected: ${pbx?.detail}`);
    }, START_BOUND_MS, 200);
  }
  return { child, port, output: () => out, exited };
}
