import fs from 'node:fs';
import path from 'node:path';
import { ASTERISK_DIR } from './render.js';

/** `load => x.so` lines of the shipped modules.conf, as names without `.so`. */
export function listedModules(): string[] {
  const text = fs.readFileSync(path.join(ASTERISK_DIR, 'etc', 'modules.conf'), 'utf8');
  return [...text.matchAll(/^load\s*=>\s*(\S+)\.so\s*$/gm)].map((m) => m[1]!);
}

/** The modules deploy/asterisk/menuselect.txt has the image build. */
export function menuselectModules(): string[] {
  return fs
    .readFileSync(path.join(ASTERISK_DIR, 'menuselect.txt'), 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}

/** `module show` output as module name → state (Running, Not Running, Declined, Failed). */
export function moduleStates(moduleShow: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const line of moduleShow.split('\n')) {
    const m = /^(\S+)\.so\s+.*\s(Running|Not Running|Declined|Failed)\b/.exec(line);
    if (m) states.set(m[1]!, m[2]!);
  }
  return states;
}
