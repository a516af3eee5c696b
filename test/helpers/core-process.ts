import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
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
 * Runs the real entry point (core/main.ts) as a child process on `dataDir` and resolves once
 * it listens and its PBX link is connected: what an operator's container runs.
 */
export async function startCoreProcess(dataDir: string, env: Record<string, string>, opts: { pbx?: boolean; startMs?: number } = {}): Promise<CoreProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ADMIN_EMAIL: 'admin@example.co.uk', ADMIN_PASSWORD: 'Admin-Password-1!', TTS_ENGINE: 'espeak-ng', ...env },
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
  }, opts.startMs ?? 30_000, 100);
  if (opts.pbx !== false) {
    await waitUntil(async () => {
      const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { components: Record<string, { ok: boolean; detail: string }> };
      if (!health.components.pbx?.detail.startsWith('connected')) throw new Error(`PBX not connected: ${health.components.pbx?.detail}`);
    }, 30_000, 200);
  }
  return { child, port, output: () => out, exited };
}
