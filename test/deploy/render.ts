import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { parseAsteriskConf, type ConfFile } from './asterisk-conf.js';

export const ASTERISK_DIR = path.join(projectRoot(), 'deploy', 'asterisk');

export interface Rendered {
  status: number | null;
  stderr: string;
  dir: string;
  /** Parses a rendered file, following its #include/#tryinclude lines like Asterisk. */
  conf(name: string): ConfFile;
}

/**
 * Runs the real deploy/asterisk/entrypoint.sh (with the real envsubst) in --render-only
 * mode against the checked-in templates, with exactly `env` (plus PATH) as its environment.
 */
export function renderAsteriskConfig(env: Record<string, string>): Rendered {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asterisk-etc-'));
  const run = spawnSync('sh', [path.join(ASTERISK_DIR, 'entrypoint.sh'), '--render-only'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ASTERISK_TEMPLATES: path.join(ASTERISK_DIR, 'etc'), ASTERISK_ETC: dir, ...env },
    encoding: 'utf8',
  });
  const read = (name: string, seen: string[] = []): string => {
    if (seen.includes(name)) throw new Error(`include loop at ${name}`);
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    // Inline includes in place, as Asterisk does, so sections continue across files.
    return text.replace(/^#(try)?include\s+"?([^"\n]+?)"?\s*$/gm, (_m, tryOnly: string | undefined, file: string) =>
      fs.existsSync(path.join(dir, file)) || !tryOnly ? read(file, [...seen, name]) : '',
    );
  };
  return { status: run.status, stderr: run.stderr, dir, conf: (name) => parseAsteriskConf(read(name)) };
}

export function templateConf(name: string): ConfFile {
  return parseAsteriskConf(fs.readFileSync(path.join(ASTERISK_DIR, 'etc', name), 'utf8'));
}
