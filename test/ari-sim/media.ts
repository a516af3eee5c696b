import fs from 'node:fs';
import path from 'node:path';
import { readWav } from './wav.js';

/**
 * The sounds the appliance's Asterisk image ships in sounds/en (deploy/asterisk/sounds.sh:
 * no core sound pack) with their approximate lengths. Any other built-in name fails to
 * play, as it does on the real image.
 */
const BUILT_IN_SOUNDS_MS: Record<string, number> = {
  beep: 250,
  'appliance-unavailable': 6500,
  'appliance-greeting': 11_900,
  'appliance-goodbye': 2700,
  'appliance-not-in-service': 7600,
};

export interface MediaResolution {
  ok: boolean;
  durationMs: number;
}

/**
 * Resolves a media URI to a length, as Asterisk's file lookup would: `sound:<dir>/<name>`
 * under a mounted sounds folder (e.g. appliance → $DATA_DIR/prompts), built-in sounds,
 * `recording:<name>` from the recording spool, `digits:`/`number:` as ~0.6 s per character.
 * Anything else is a missing file: Asterisk still answers 201, then the playback fails.
 */
export function resolveMedia(uri: string, soundDirs: Record<string, string>, spoolDir: string): MediaResolution {
  const [scheme, ...rest] = uri.split(':');
  const target = rest.join(':');
  if (scheme === 'sound') {
    if (target in BUILT_IN_SOUNDS_MS) return { ok: true, durationMs: BUILT_IN_SOUNDS_MS[target]! };
    const slash = target.indexOf('/');
    if (slash > 0) {
      const dir = soundDirs[target.slice(0, slash)];
      if (dir) return wavLength(path.join(dir, `${target.slice(slash + 1)}.wav`));
    }
    return { ok: false, durationMs: 0 };
  }
  if (scheme === 'recording') return wavLength(path.join(spoolDir, `${target}.wav`));
  if (scheme === 'digits' || scheme === 'number' || scheme === 'characters') {
    return { ok: target.length > 0, durationMs: 600 * target.length };
  }
  if (scheme === 'tone') return { ok: true, durationMs: 1000 };
  return { ok: false, durationMs: 0 };
}

function wavLength(file: string): MediaResolution {
  if (!fs.existsSync(file)) return { ok: false, durationMs: 0 };
  try {
    return { ok: true, durationMs: readWav(file).durationMs };
  } catch {
    return { ok: false, durationMs: 0 };
  }
}
