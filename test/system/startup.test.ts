import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The real entry point (root/main.ts) as an operator runs it, on a free port and a temp DATA_DIR. */
function startCore(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'root/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (out.stdout += d));
  child.stderr!.on('data', (d) => (out.stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out, exited };
}

const children: ChildProcess[] = [];
const tempDirs: string[] = [];
function tempDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'core-start-'));
  tempDirs.push(d);
  return d;
}
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of tempDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function listeningPort(out: { stdout: string }): Promise<number> {
  let port = 0;
  await vi.waitFor(
    () => {
      const m = out.stdout.match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
      if (!m) throw new Error('not listening yet');
      port = Number(m[1]);
    },
    { timeout: 90_000, interval: 100 },
  );
  return port;
}

describe('starting the appliance', () => {
  it('creates the first admin with a one-time password printed once, answers /healthz, logs JSON without secrets, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const first = startCore({ DATA_DIR: dataDir, PORT: '0' });
    children.push(first.child);
    const port = await listeningPort(first.out);
    const otp = first.out.stdout.match(/One-time password: (\S+)/)?.[1];
    expect(otp).toBeDefined();

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password: otp }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    await fetch(`http://127.0.0.1:${port}/api/auth/me`, { headers: { cookie } });
    // The administrator's session reads each component's report.
    const detailed = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { cookie } });
    expect(((await detailed.json()) as any).components.database.ok).toBe(true);

    const logLines = first.out.stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(3);
    for (const line of logLines) expect(() => JSON.parse(line)).not.toThrow();
    expect(first.out.stdout).not.toContain(cookie.split('=')[1]!);
    expect(logLines.join('\n')).not.toContain(otp!);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // A second start finds the admin and prints no new password.
    const second = startCore({ DATA_DIR: dataDir, PORT: '0' });
    children.push(second.child);
    await listeningPort(second.out);
    expect(second.out.stdout).not.toContain('One-time password');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    // Two starts of the real entry point: on the shared, loaded machine each can take 20 s.
  }, 240_000);

  it('refuses to start on bad configuration with a message naming the variable', async () => {
    const bad = startCore({ DATA_DIR: tempDir(), PORT: 'eighty' });
    children.push(bad.child);
    expect(await bad.exited).toBe(2);
    expect(bad.out.stderr).toContain('Invalid configuration: PORT must be a whole number');
  });
});
