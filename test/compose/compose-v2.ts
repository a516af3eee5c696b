import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Compose v2, the `docker compose` operators run. Debian bookworm ships only docker-compose
// 1.29; Debian trixie's docker-compose package is Compose 2.26, one static binary (it needs
// libc6 >= 2.34; bookworm has 2.36) that is Docker's CLI plugin. The test takes that package
// from the machine's own Debian mirror with apt (which checks it against the archive's signed
// Release file), in a private apt state folder, and unpacks the plugin into a cache folder:
// nothing is installed on the machine and bookworm's apt sources are left as they are. The
// docker client finds the plugin through DOCKER_CONFIG (dockerClientEnv). Operators never
// need this: their Docker packages carry the plugin.

const CACHE = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'callkeeper-compose-v2');

/** The DOCKER_CONFIG folder whose cli-plugins/ holds Compose v2 (composeV2 makes it). */
export const COMPOSE_V2_CONFIG = CACHE;

const PLUGIN = path.join(CACHE, 'cli-plugins', 'docker-compose');

/** The Debian mirror this machine's apt uses (a company mirror stays the one used). */
function debianMirror(): string {
  const sources = ['/etc/apt/sources.list', ...fs.readdirSync('/etc/apt/sources.list.d').map((f) => path.join('/etc/apt/sources.list.d', f))]
    .filter((f) => /\.(list|sources)$/.test(f) && fs.existsSync(f))
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
  const uri = /^(?:URIs:\s*|deb\s+(?:\[[^\]]*\]\s+)?)(\S+\/debian)\/?\s/m.exec(sources);
  return uri?.[1] ?? 'http://deb.debian.org/debian';
}

function run(command: string, args: string[], cwd?: string): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** Compose v2's version, fetching Debian trixie's package first when the cache has none. */
export function composeV2(): string {
  if (!fs.existsSync(PLUGIN)) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-compose-v2-'));
    try {
      fs.writeFileSync(path.join(work, 'trixie.list'), `deb ${debianMirror()} trixie main\n`);
      for (const d of ['lists/partial', 'cache/archives/partial']) fs.mkdirSync(path.join(work, d), { recursive: true });
      const apt = [
        '-q', '-o', `Dir::Etc::SourceList=${path.join(work, 'trixie.list')}`, '-o', 'Dir::Etc::SourceParts=/dev/null',
        '-o', `Dir::State::Lists=${path.join(work, 'lists')}`, '-o', `Dir::Cache=${path.join(work, 'cache')}`,
        '-o', 'APT::Sandbox::User=root',
      ];
      run('apt-get', [...apt, 'update']);
      run('apt-get', [...apt, 'download', 'docker-compose/trixie'], work);
      const deb = fs.readdirSync(work).find((f) => /^docker-compose_2\..*\.deb$/.test(f));
      if (!deb) throw new Error(`apt-get download gave no Compose v2 package in ${work}`);
      run('dpkg-deb', ['-x', path.join(work, deb), path.join(work, 'unpacked')]);
      fs.mkdirSync(path.dirname(PLUGIN), { recursive: true });
      fs.copyFileSync(path.join(work, 'unpacked', 'usr', 'libexec', 'docker', 'cli-plugins', 'docker-compose'), `${PLUGIN}.tmp`);
      fs.chmodSync(`${PLUGIN}.tmp`, 0o755);
      fs.renameSync(`${PLUGIN}.tmp`, PLUGIN);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  // Debian's docker client (/usr/bin/docker), as the test's engine clients use.
  const version = spawnSync('/usr/bin/docker', ['compose', 'version', '--short'], { env: { ...process.env, DOCKER_CONFIG: CACHE }, encoding: 'utf8' });
  if (version.status !== 0 || !/^v?2\./.test(version.stdout.trim())) {
    throw new Error(`Compose v2 does not run from ${PLUGIN}: ${version.stderr || version.stdout}`);
  }
  return version.stdout.trim();
}
