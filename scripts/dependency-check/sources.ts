import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import type { Advisory, LockEntry, NpmLsNode } from './check.js';

// Where the check reads this checkout's dependencies and the project's advisory list.

export function advisoryList(): Advisory[] {
  return (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'advisories.json'), 'utf8')) as { advisories: Advisory[] }).advisories;
}

export function lockFile(): { packages?: Record<string, LockEntry> } {
  return JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package-lock.json'), 'utf8')) as { packages?: Record<string, LockEntry> };
}

/** `npm ls --omit=dev --all --json` of the installed tree (npm exits non-zero on a problem such as an extraneous package, yet prints the tree). */
export function installedProductionTree(): NpmLsNode {
  let out: string;
  try {
    out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--json'], { cwd: projectRoot(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? '');
    if (!out) throw err;
  }
  return JSON.parse(out) as NpmLsNode;
}
