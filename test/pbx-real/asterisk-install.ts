import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';

// Where the real Asterisk 20.17.0 comes from: an unpacked tree (ASTERISK_DIR), or the
// relocatable tarball (ASTERISK_TARBALL, default ../shared/asterisk/), unpacked once per
// machine into the temp folder and shared by every test file and benchmark.

const ASTERISK_VERSION = '20.17.0';
const TARBALL_NAME = `asterisk-${ASTERISK_VERSION}-bookworm-amd64.tar.xz`;

export type AsteriskAvailability = { ok: true; root: string } | { ok: false; why: string };

const HOW_TO_GET =
  'run `bash .ci/run` once (it installs the runtime packages), or set ASTERISK_DIR to an unpacked ' +
  `Asterisk ${ASTERISK_VERSION} tree or ASTERISK_TARBALL to ${TARBALL_NAME}`;

let cached: AsteriskAvailability | undefined;

/** Finds (and if needed unpacks) Asterisk and checks that it runs on this machine. */
export function findAsterisk(): AsteriskAvailability {
  cached ??= locate();
  return cached;
}

function locate(): AsteriskAvailability {
  let root = process.env.ASTERISK_DIR;
  if (!root) {
    const tarball = process.env.ASTERISK_TARBALL ?? path.join(projectRoot(), '..', 'shared', 'asterisk', TARBALL_NAME);
    if (!fs.existsSync(tarball)) return { ok: false, why: `real-PBX tests skipped: no Asterisk at ${tarball}; ${HOW_TO_GET}` };
    try {
      root = unpack(tarball);
    } catch (err) {
      return { ok: false, why: `real-PBX tests skipped: cannot unpack ${tarball} (${(err as Error).message}); ${HOW_TO_GET}` };
    }
  }
  const bin = path.join(root, 'sbin', 'asterisk');
  const v = spawnSync(bin, ['-V'], { encoding: 'utf8' });
  if (v.status !== 0 || !v.stdout.includes(ASTERISK_VERSION)) {
    return { ok: false, why: `real-PBX tests skipped: ${bin} does not run (${(v.stderr || v.error?.message || v.stdout).trim().split('\n')[0]}); ${HOW_TO_GET}` };
  }
  for (const tool of ['sipp', 'espeak-ng', 'sox']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      return { ok: false, why: `real-PBX tests skipped: ${tool} is missing (apt-get install sip-tester espeak-ng sox); ${HOW_TO_GET}` };
    }
  }
  return { ok: true, root };
}

/** Unpacks the tarball into a folder named by its checksum; a finished unpack is reused. */
function unpack(tarball: string): string {
  const sha = crypto.createHash('sha256').update(fs.readFileSync(tarball)).digest('hex');
  const expected = readExpectedSha(tarball);
  if (expected && expected !== sha) throw new Error(`checksum ${sha} does not match ${expected}`);
  const dir = path.join(os.tmpdir(), `callkeeper-asterisk-${sha.slice(0, 16)}`);
  const root = path.join(dir, 'asterisk');
  if (fs.existsSync(path.join(root, 'sbin', 'asterisk'))) return root;
  // Unpacked beside and renamed into place: parallel test workers never see half a tree.
  const tmp = fs.mkdtempSync(`${dir}.unpack-`);
  const tar = spawnSync('tar', ['-xJf', tarball, '-C', tmp], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(tar.stderr.trim() || 'tar failed');
  try {
    fs.renameSync(tmp, dir);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // another worker won the race
  }
  return root;
}

function readExpectedSha(tarball: string): string | undefined {
  const file = `${tarball}.sha256`;
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split(/\s+/)[0] : undefined;
}
