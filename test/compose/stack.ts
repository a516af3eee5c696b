import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { freeTcpPort } from '../pbx-real/ports.js';
import type { Dockerd } from './dockerd.js';

// The stack as an operator runs it: a copy of this checkout (tracked and new files, as
// `git ls-files` lists them) with its own .env, brought up with the shipped
// docker-compose.yml plus the test's override (docker-compose.test.yml) and nothing else.
// The copy is what an operator clones; the checkout's own .env, data and node_modules stay
// out of it.

const ROOT = projectRoot();
const SHARED_SRC = path.join(ROOT, '..', 'shared', 'asterisk', 'src');

export const DID = '+441632960001';
export const ADMIN = { email: 'admin@example.co.uk', password: 'Admin-Password-1!' };

export interface Stack {
  dir: string;
  consoleUrl: string;
  /** docker-compose with the shipped file and the test override; throws with its output on failure. */
  compose(args: string[], opts?: { timeoutMs?: number }): Promise<string>;
  /** docker, against the test's engine. */
  docker(args: string[]): string;
  /** The container id of a service (running or stopped). */
  container(service: string): string;
  /** Service logs, for failure messages. */
  logs(service?: string): string;
}

/** SHA-256 of the offline sources (../shared/asterisk/src/SHA256SUMS). */
function sourceSums(): Record<string, string> {
  const sums: Record<string, string> = {};
  for (const line of fs.readFileSync(path.join(SHARED_SRC, 'SHA256SUMS'), 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64})\s+\*?(\S+)$/.exec(line.trim());
    if (m) sums[m[2]!] = m[1]!;
  }
  return sums;
}

export async function prepareStack(dockerd: Dockerd): Promise<Stack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-stack-'));
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'buffer' });
  if (files.status !== 0) throw new Error(`git ls-files failed: ${files.stderr}`);
  for (const rel of files.stdout.toString('utf8').split('\0').filter(Boolean)) {
    const from = path.join(ROOT, rel);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, rel));
  }
  const sums = sourceSums();
  const asteriskTar = Object.keys(sums).find((f) => f.startsWith('asterisk-'))!;
  const pjTar = Object.keys(sums).find((f) => f.startsWith('pjproject-'))!;
  for (const f of [asteriskTar, pjTar]) fs.copyFileSync(path.join(SHARED_SRC, f), path.join(dir, 'deploy', 'asterisk', 'sources', f));

  const consolePort = await freeTcpPort();
  const env = {
    COMPOSE_PROJECT_NAME: `cktest${process.pid}`,
    ASTERISK_SHA256: sums[asteriskTar],
    PJPROJECT_SHA256: sums[pjTar],
    ARI_PASSWORD: crypto.randomBytes(16).toString('hex'),
    // The test's SIPp callers come from loopback: the uk-did trunk matches them by address.
    SIP_TRUNKS: 'uk-did',
    SIP_UKDID_MATCH: '127.0.0.1',
    SIP_UKDID_HOST: '127.0.0.1:9',
    CONSOLE_PORT: String(consolePort),
    TEST_OLLAMA_PORT: String(await freeTcpPort()),
    TEST_WHISPER_PORT: String(await freeTcpPort()),
    // The engine doubles run from this checkout (with its node_modules), mounted read-only.
    TEST_REPO: ROOT,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    NUMBER_PROVIDER: 'static',
    STATIC_NUMBERS: DID,
    TTS_ENGINE: 'espeak-ng',
    PUBLIC_URL: `http://127.0.0.1:${consolePort}`,
  };
  fs.writeFileSync(path.join(dir, '.env'), Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');

  const base = ['-f', 'docker-compose.yml', '-f', 'test/compose/docker-compose.test.yml'];
  const docker = (args: string[]) => {
    const r = spawnSync('docker', args, { env: dockerd.env, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`docker ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout;
  };
  const stack: Stack = {
    dir,
    consoleUrl: `http://127.0.0.1:${consolePort}`,
    compose(args, opts = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn('docker-compose', [...base, ...args], { cwd: dir, env: dockerd.env });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(out);
          else reject(new Error(`docker-compose ${args.join(' ')} exited ${code}:\n${out.slice(-6000)}`));
        });
      });
    },
    docker,
    container(service) {
      const id = spawnSync('docker-compose', [...base, 'ps', '-q', service], { cwd: dir, env: dockerd.env, encoding: 'utf8' }).stdout.trim();
      if (!id) throw new Error(`no ${service} container`);
      return id;
    },
    logs(service) {
      return spawnSync('docker-compose', [...base, 'logs', '--no-color', '--tail', '200', ...(service ? [service] : [])], { cwd: dir, env: dockerd.env, encoding: 'utf8' }).stdout;
    },
  };
  return stack;
}
