// Issue 38, item 5: the unused-code check (knip with the project's knip.jsonc, `npm run
// check:unused` in `npm test`) is seen to fail. It runs on a copy of the repository's tracked
// files, once as they are (no finding: what CI checks) and once with an unused export planted in
// a real module and an unused file planted beside it, which must be exactly what it reports.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'node_modules/knip/bin/knip.js');

interface KnipReport { issues: Array<Record<string, unknown> & { file: string }> }

/** knip as `npm run check:unused` runs it, with its JSON report: exit code and one line per finding. */
async function knip(cwd: string): Promise<{ code: number; findings: string[] }> {
  const args = [CLI, '--no-progress', '--treat-config-hints-as-errors', '--reporter', 'json'];
  const { code, stdout } = await promisify(execFile)(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 })
    .then(({ stdout }) => ({ code: 0, stdout }))
    // knip exits non-zero when it finds something; its report is still on stdout.
    .catch((e: { code?: number; stdout?: string }) => { if (typeof e.code !== 'number' || !e.stdout) throw e; return { code: e.code, stdout: e.stdout }; });
  const findings: string[] = [];
  for (const issue of (JSON.parse(stdout) as KnipReport).issues) {
    for (const [kind, list] of Object.entries(issue)) {
      if (!Array.isArray(list)) continue;
      for (const item of list as Array<{ name: string }>) findings.push(kind === 'files' ? `unused file: ${issue.file}` : `${kind}: ${issue.file} ${item.name}`);
    }
  }
  return { code, findings: findings.sort() };
}

describe('unused-code check', () => {
  let copy: string;

  beforeAll(async () => {
    // Tracked files only: what a clean clone holds, without other tests' scratch files.
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'unused-code-'));
    const { stdout } = await promisify(execFile)('git', ['ls-files', '-z'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    for (const file of stdout.split('\0').filter(Boolean)) {
      if (!fs.existsSync(path.join(ROOT, file))) continue; // deleted in the working tree, not yet committed
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
    }
    // knip loads the vite and vitest configs to find their entries, so the copy needs the packages.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  }, 120_000);

  afterAll(() => {
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  });

  it('the tracked tree has no unused export, file or dependency', async () => {
    expect(await knip(copy)).toEqual({ code: 0, findings: [] });
  }, 180_000);

  it('an unused export planted in a real module and an unused file are caught, and fail the check', async () => {
    fs.appendFileSync(path.join(copy, 'core/call-handling/decide.ts'), '\nexport function plantedHelper(): number {\n  return 1;\n}\n');
    fs.writeFileSync(path.join(copy, 'core/call-handling/planted-orphan.ts'), 'export const orphan = 1;\n');
    expect(await knip(copy)).toEqual({
      code: 1,
      findings: [
        'exports: core/call-handling/decide.ts plantedHelper',
        'unused file: core/call-handling/planted-orphan.ts',
      ],
    });
  }, 180_000);
});
