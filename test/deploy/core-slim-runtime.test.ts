// Issue 60 item 6: deploy/core/slim-runtime.sh trims what the core's runtime image copies from
// its build stage. Run here on a made-up /app: what Node loads stays (code, this machine's
// native addon, a package's own lib/test folder), what it never loads goes. The image itself is
// measured by test/compose/stack.test.ts (at most 200 MB over its Node base).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/config/paths.js';

const SCRIPT = path.join(projectRoot(), 'deploy', 'core', 'slim-runtime.sh');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const FILES = [
  'node_modules/twilio/package.json',
  'node_modules/twilio/lib/index.js',
  'node_modules/twilio/lib/index.d.ts',
  'node_modules/twilio/lib/index.js.map',
  'node_modules/twilio/README.md',
  'node_modules/twilio/LICENSE',
  'node_modules/twilio/test/client.spec.js',
  'node_modules/twilio/lib/test/helper.js',
  'node_modules/@fastify/static/package.json',
  'node_modules/@fastify/static/index.js',
  'node_modules/@fastify/static/types/index.d.ts',
  'node_modules/@fastify/static/test/static.test.js',
  'node_modules/typebox/package.json',
  'node_modules/typebox/build/index.mjs',
  'node_modules/typebox/build/index.d.mts',
  'node_modules/better-sqlite3/package.json',
  'node_modules/better-sqlite3/lib/index.js',
  `node_modules/better-sqlite3/prebuilds/linux-${process.arch}.node`,
  'node_modules/better-sqlite3/prebuilds/win32-x64.node',
  'node_modules/better-sqlite3/prebuilds/linuxmusl-arm64.node',
  'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
  'node_modules/better-sqlite3/src/better_sqlite3.cpp',
  'node_modules/argon2/package.json',
  `node_modules/argon2/prebuilds/linux-${process.arch}/argon2.glibc.node`,
  'node_modules/argon2/prebuilds/darwin-arm64/argon2.glibc.node',
  'node_modules/@echogarden/fvad-wasm/fvad.wasm',
  'dist/root/main.js',
  'dist/root/main.js.map',
];

/** The files left under a made-up /app after the script ran there. */
function slimmed(): string[] {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'core-slim-'));
  dirs.push(app);
  for (const f of FILES) {
    fs.mkdirSync(path.dirname(path.join(app, f)), { recursive: true });
    fs.writeFileSync(path.join(app, f), f.endsWith('package.json') ? '{}' : 'x');
  }
  const r = spawnSync('sh', [SCRIPT, app], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return (fs.readdirSync(app, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(app, path.join(d.parentPath, d.name)))
    .sort();
}

describe('deploy/core/slim-runtime.sh', () => {
  it('keeps the code Node loads, this machine’s addons and the licences; drops types, maps, readmes, test suites, other platforms’ addons and C sources', () => {
    expect(slimmed()).toEqual(
      [
        'node_modules/twilio/package.json',
        'node_modules/twilio/lib/index.js',
        'node_modules/twilio/LICENSE',
        'node_modules/twilio/lib/test/helper.js',
        'node_modules/@fastify/static/package.json',
        'node_modules/@fastify/static/index.js',
        'node_modules/typebox/package.json',
        'node_modules/typebox/build/index.mjs',
        'node_modules/better-sqlite3/package.json',
        'node_modules/better-sqlite3/lib/index.js',
        `node_modules/better-sqlite3/prebuilds/linux-${process.arch}.node`,
        'node_modules/argon2/package.json',
        `node_modules/argon2/prebuilds/linux-${process.arch}/argon2.glibc.node`,
        'node_modules/@echogarden/fvad-wasm/fvad.wasm',
        'dist/root/main.js',
      ].sort(),
    );
  });
});
