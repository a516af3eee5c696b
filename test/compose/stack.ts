import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { signupBody } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { waitUntil } from '../helpers/wait.js';
import { freeTcpPort } from '../pbx-real/ports.js';
import { SITE_HOST } from '../https/caddy.js';
import { dockerClientEnv } from './dockerd.js';
import { startPiperFixtures, type PiperFixtures } from './piper-fixtures.js';

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
  /** Node A's console (the one box's only one). */
  consoleUrl: string;
  /** The console through the HTTPS proxy (PUBLIC_URL): https://callkeeper.test:<port>, the name mapped to loopback. */
  proxyUrl: string;
  proxyHttpPort: number;
  /** The core's own port: on loopback only (the proxy's upstream), reachable from nowhere else. */
  consolePort: number;
  /** The .env the stack runs with. */
  env: Record<string, string>;
  /** What the piper image is built from: Piper's release and voices made locally (piper-fixtures.ts). */
  piper: PiperFixtures;
  /** `docker compose` (v2) with the shipped file and the test override; throws with its output on failure. */
  compose(args: string[], opts?: { timeoutMs?: number }): Promise<string>;
  /** Debian's docker-compose 1.29 with the same files, run to its end: what operators on 1.29 get. */
  composeV1(args: string[]): { status: number | null; output: string };
  /** docker, against the test's engine. */
  docker(args: string[]): string;
  /** The container id of a service (running or stopped). */
  container(service: string): string;
  /** Service logs, for failure messages. */
  logs(service?: string): string;
  /** A service's container health: healthy, starting, unhealthy, or none without a healthcheck. */
  health(service: string): string;
  /** Waits until every one of `services` is healthy. */
  allHealthy(services: string[]): Promise<void>;
  /** A command inside a service's running container; its stdout. */
  exec(service: string, args: string[]): string;
  /** The texts a core wrote to its outbox (no SMS provider is set in the test's .env). */
  outboxTexts(service: string): Array<{ to: string; body: string; channel: string }>;
  /** Keeps the services' logs in test-results/`logsFile`, then takes the stack down with its volumes and deletes the copy. */
  close(logsFile: string): Promise<void>;
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

/**
 * A copy of the checkout with its own .env, for the engine at `dockerHost`. `name` tells apart
 * the compose projects of one run; `extraEnv` adds .env lines (the cluster's).
 */
export async function prepareStack(dockerHost: string, opts: { name: string; extraEnv?: Record<string, string> }): Promise<Stack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ck-stack-${opts.name}-`));
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
  const piper = await startPiperFixtures();
  const proxyHttpsPort = await freeTcpPort();
  const proxyHttpPort = await freeTcpPort();
  const env: Record<string, string> = {
    COMPOSE_PROJECT_NAME: `cktest${process.pid}${opts.name}`,
    ASTERISK_SHA256: sums[asteriskTar]!,
    PJPROJECT_SHA256: sums[pjTar]!,
    ARI_PASSWORD: crypto.randomBytes(16).toString('hex'),
    // The test's SIPp callers come from loopback: the uk-did trunk matches them by address.
    SIP_TRUNKS: 'uk-did',
    SIP_UKDID_MATCH: '127.0.0.1',
    SIP_UKDID_HOST: '127.0.0.1:9',
    CONSOLE_PORT: String(consolePort),
    TEST_OLLAMA_PORT: String(await freeTcpPort()),
    TEST_WHISPER_PORT: String(await freeTcpPort()),
    TEST_PIPER_PORT: String(await freeTcpPort()),
    // The piper image built from the local fixtures, checked against their hashes.
    ...piper.buildArgs,
    // The engine doubles run from this checkout (with its node_modules), mounted read-only.
    TEST_REPO: ROOT,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    NUMBER_PROVIDER: 'static',
    STATIC_NUMBERS: DID,
    // The test owner's phone is in Ofcom's drama range (07700 900xxx), which the box texts no
    // confirmation code to unless the operator allows it (issue 39's codes go where texts may).
    OUTBOUND_ALLOW: '+447700900',
    // The console behind the proxy at a name that is not localhost (clients map it to
    // loopback), with Caddy's local CA: what a LAN or test box runs (docs/deployment.md, "HTTPS").
    PUBLIC_URL: `https://${SITE_HOST}:${proxyHttpsPort}`,
    TLS_MODE: 'internal',
    TEST_PROXY_HTTP_PORT: String(proxyHttpPort),
    ...opts.extraEnv,
  };
  fs.writeFileSync(path.join(dir, '.env'), Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');

  const base = ['-f', 'docker-compose.yml', '-f', 'test/compose/docker-compose.test.yml'];
  const clientEnv = dockerClientEnv(dockerHost);
  const docker = (args: string[]) => {
    const r = spawnSync('docker', args, { env: clientEnv, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`docker ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout;
  };
  const stack: Stack = {
    dir,
    consoleUrl: `http://127.0.0.1:${consolePort}`,
    proxyUrl: `https://${SITE_HOST}:${proxyHttpsPort}`,
    proxyHttpPort,
    consolePort,
    env,
    piper,
    compose(args, opts = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn('docker', ['compose', ...base, ...args], { cwd: dir, env: clientEnv });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(out);
          else reject(new Error(`docker compose ${args.join(' ')} exited ${code}:\n${out.slice(-6000)}`));
        });
      });
    },
    composeV1(args) {
      const r = spawnSync('docker-compose', [...base, ...args], { cwd: dir, env: clientEnv, encoding: 'utf8' });
      return { status: r.status, output: `${r.stdout}${r.stderr}` };
    },
    docker,
    container(service) {
      const id = spawnSync('docker', ['compose', ...base, 'ps', '--all', '-q', service], { cwd: dir, env: clientEnv, encoding: 'utf8' }).stdout.trim();
      if (!id) throw new Error(`no ${service} container`);
      return id;
    },
    logs(service) {
      return spawnSync('docker', ['compose', ...base, 'logs', '--no-color', '--tail', '200', ...(service ? [service] : [])], { cwd: dir, env: clientEnv, encoding: 'utf8' }).stdout;
    },
    health(service) {
      return docker(['inspect', '--format', '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}', stack.container(service)]).trim();
    },
    async allHealthy(services) {
      await waitUntil(() => {
        const states = services.map((s) => `${s}=${stack.health(s)}`);
        if (!states.every((s) => s.endsWith('=healthy'))) throw new Error(`not all healthy: ${states.join(' ')}`);
      }, 300_000, 1000);
    },
    exec(service, args) {
      return docker(['exec', stack.container(service), ...args]);
    },
    outboxTexts(service) {
      const listing = stack.exec(service, ['sh', '-c', 'cat /data/outbox/sms/*.json 2>/dev/null | tr -d "\\n" | sed "s/}{/}\\n{/g"; echo']).trim();
      return listing ? listing.split('\n').map((l) => JSON.parse(l)) : [];
    },
    async close(logsFile) {
      fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
      fs.writeFileSync(path.join(ROOT, 'test-results', logsFile), stack.logs());
      await stack.compose(['down', '-v', '--timeout', '5']).catch(() => undefined);
      await piper.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return stack;
}

/**
 * An owner signed up on the console, approved by the first admin, with the stack's number, and
 * their number confirmed for texts (issue 39: nothing is texted to an unconfirmed number). A box
 * with no sender before the owner has a number texts no code at approval, so the owner does
 * what the checklist tells them: saves their number under Notification Settings once they have
 * a number, and enters the code the box texted (read from the outbox of `cores`).
 */
export async function signUpOwner(stack: Pick<Stack, 'consoleUrl' | 'exec'>, businessName: string, cores: string[] = ['core']): Promise<ApiClient & { signedUpWith: { email: string; password: string } }> {
  const signup = signupBody({ businessName });
  const owner = new ApiClient(stack.consoleUrl);
  const must = (what: string, res: { status: number; text: string }, status: number) => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
  };
  must('sign-up', await owner.post('/api/auth/signup', signup), 201);
  const admin = new ApiClient(stack.consoleUrl);
  must('admin login', await admin.post('/api/auth/login', ADMIN), 200);
  const pending = await admin.get('/api/admin/approvals');
  const id = pending.body.users.find((u: { email: string }) => u.email === signup.businessEmail).id;
  must('approval', await admin.post(`/api/admin/approvals/${id}/approve`), 200);
  must('owner login', await owner.post('/api/auth/login', { email: signup.businessEmail, password: signup.password }), 200);
  must('number purchase', await owner.post('/api/phone-numbers/purchase'), 201);
  must('notification number', await owner.request('PATCH', '/api/user/settings', { notificationNumber: signup.businessPhone }), 200);
  const code = await waitUntil(() => {
    const texts = cores.flatMap((core) => stack.exec(core, ['sh', '-c', `cat /data/outbox/sms/confirm-${id}-*.json 2>/dev/null | tr -d "\\n" | sed "s/}{/}\\n{/g"; echo`]).trim().split('\n').filter(Boolean));
    const found = texts.map((t) => /confirmation code is (\d{6})/.exec((JSON.parse(t) as { body: string }).body)?.[1]).filter(Boolean).at(-1);
    if (!found) throw new Error('no confirmation code texted yet');
    return found;
  }, 60_000, 500);
  must('number confirmed', await owner.post('/api/user/destinations/confirm', { kind: 'sms', code }), 200);
  return Object.assign(owner, { signedUpWith: { email: signup.businessEmail, password: signup.password } });
}

/** Adds `figures` to test-results/compose-figures.json (each compose test file adds its own). */
/** Where prebuild.ts (CI's head start) leaves its build times for the compose run to report. */
export const PREBUILD_FIGURES = path.join(ROOT, 'test-results', 'compose-prebuild-figures.json');

export function recordFigures(figures: Record<string, string | number>): void {
  const dir = path.join(ROOT, 'test-results');
  const file = path.join(dir, 'compose-figures.json');
  fs.mkdirSync(dir, { recursive: true });
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  fs.writeFileSync(file, JSON.stringify({ ...before, ...figures }, null, 2));
  for (const [k, v] of Object.entries(figures)) console.log(`compose figure: ${k} = ${v}`);
}
