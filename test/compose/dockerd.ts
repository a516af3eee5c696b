import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '../helpers/wait.js';
import { composeV2, COMPOSE_V2_CONFIG } from './compose-v2.js';

// A Docker engine of the test's own: Debian's dockerd (run as root, as it must be) with its
// data root, exec root and socket in a temp folder, so the images the test builds and the
// containers it starts never mix with anything else on the machine, and stopping it removes
// them all. Debian's docker client (/usr/bin/docker) speaks to it: a newer client on PATH may
// want buildx, which Debian does not ship with docker.io 20.10. Compose is v2, `docker
// compose` as operators run it (compose-v2.ts); Debian's docker-compose 1.29 stays needed to
// check that it still reads the file.
//
// Every container and build of the test is on the host network, so the engine makes no
// bridge and touches neither iptables nor the kernel's forwarding: two engines (another
// test run's, CI's) then share nothing but the host's ports.
//
// COMPOSE_TEST_DOCKER_ROOT (developers only; unset in CI): a folder kept between runs as the
// engine's data root, so its images and build cache survive and the Asterisk image is not
// compiled again on every run. Containers and volumes are still removed at the end.

export interface Dockerd {
  /** DOCKER_HOST for clients of this engine. */
  host: string;
  /** PATH with Debian's docker client first. */
  env: NodeJS.ProcessEnv;
  dir: string;
  log(): string;
  stop(): Promise<void>;
}

const NEEDED = [
  ['dockerd', 'docker.io'],
  ['docker-compose', 'docker-compose'],
  ['debootstrap', 'debootstrap'],
] as const;

/** The Debian packages missing for the compose test, to name in the error (CI installs them in .ci/run). */
export function missingTools(): string[] {
  return NEEDED.filter(([bin]) => spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0).map(([, pkg]) => pkg);
}

/** The environment for Debian's docker client (with Compose v2) and docker-compose 1.29 against the engine at `host`. */
export function dockerClientEnv(host: string): NodeJS.ProcessEnv {
  return { ...process.env, DOCKER_HOST: host, DOCKER_CONFIG: COMPOSE_V2_CONFIG, PATH: `/usr/bin:${process.env.PATH ?? ''}`, DOCKER_BUILDKIT: '1', COMPOSE_DOCKER_CLI_BUILD: '1' };
}

/**
 * `idle`: the engine, and every build and container under it, runs at the lowest CPU and I/O
 * priority, taking only what the rest of the machine leaves (CI's head start, prebuild.ts).
 */
export async function startDockerd(opts: { idle?: boolean } = {}): Promise<Dockerd> {
  const missing = missingTools();
  if (missing.length) throw new Error(`the compose test needs Debian's ${missing.join(', ')}: apt-get install -y ${missing.join(' ')}`);
  if (process.getuid?.() !== 0) throw new Error('the compose test starts its own dockerd, which must run as root');
  composeV2();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-dockerd-'));
  const kept = process.env.COMPOSE_TEST_DOCKER_ROOT;
  const dataRoot = kept ? path.resolve(kept) : path.join(dir, 'root');
  const socket = path.join(dir, 'docker.sock');
  const logFile = path.join(dir, 'dockerd.log');
  const out = fs.openSync(logFile, 'a');
  // nice and ionice exec dockerd, so the child is dockerd itself (signals reach it).
  const command = opts.idle ? ['nice', '-n', '19', 'ionice', '-c', '3', 'dockerd'] : ['dockerd'];
  const child: ChildProcess = spawn(
    command[0]!,
    [
      ...command.slice(1),
      '--data-root', dataRoot,
      '--exec-root', path.join(dir, 'exec'),
      '--pidfile', path.join(dir, 'dockerd.pid'),
      '-H', `unix://${socket}`,
      '--bridge=none', '--iptables=false', '--ip6tables=false', '--ip-forward=false', '--ip-masq=false',
    ],
    { stdio: ['ignore', out, out] },
  );
  const host = `unix://${socket}`;
  const env = dockerClientEnv(host);
  const log = () => fs.readFileSync(logFile, 'utf8');
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitUntil(() => {
    if (exited) throw new Error(`dockerd exited at start:\n${log().slice(-3000)}`);
    if (spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { env }).status !== 0) throw new Error('dockerd does not answer yet');
  }, 120_000, 250);
  return {
    host,
    env,
    dir,
    log,
    async stop() {
      // Containers first, so dockerd's shutdown does not wait on their grace periods.
      const ids = spawnSync('docker', ['ps', '-aq'], { env, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
      if (ids.length) spawnSync('docker', ['rm', '-f', ...ids], { env });
      // A kept data root keeps images and build cache only: a failed run's volumes go too.
      if (kept) spawnSync('docker', ['volume', 'prune', '-f'], { env });
      if (!exited) {
        child.kill('SIGTERM');
        await waitUntil(() => {
          if (!exited) throw new Error('dockerd still running');
        }, 60_000, 250).catch(() => child.kill('SIGKILL'));
      }
      // The overlay mounts are gone once dockerd has stopped; what may remain mounted is the
      // network namespace file it binds under exec/netns (exec itself is no mount point, so
      // `umount -R exec` left it, and the folder behind). Every mount below the folder goes,
      // deepest first, then the plain files.
      const mounts = fs
        .readFileSync('/proc/mounts', 'utf8')
        .split('\n')
        .map((l) => l.split(' ')[1] ?? '')
        .filter((m) => m.startsWith(`${dir}/`))
        .sort()
        .reverse();
      for (const m of mounts) spawnSync('umount', [m]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
