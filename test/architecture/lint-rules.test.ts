// Issue 38, item 5: the linter (eslint.config.mjs) is seen to fail on a planted breach of each
// of its rules, so `npm run lint` passing in CI means something. The planted file is written
// inside test/ for the duration of the test, because the type-aware rules need it in a project.
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const PLANTED = `import { readFile } from 'node:fs/promises';
import { Stats } from 'node:fs';

export async function planted(input: unknown): Promise<number> {
  var count = 0;
  let fixed = 1;
  const unused = 2;
  readFile('/nonexistent');
  if (input == 2) count++;
  const s: Stats | undefined = undefined;
  return count + fixed + (s ? 1 : 0);
}

export function* noYield(): Generator<number> {
  return 1;
}
`;

describe('lint rules', () => {
  it('a planted file breaking each rule once is caught, rule by rule', async () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test/architecture/planted-'));
    const file = path.join(dir, 'planted.ts');
    fs.writeFileSync(file, PLANTED);
    try {
      const [result] = await new ESLint({ cwd: ROOT }).lintFiles([file]);
      // (no-explicit-any is off under test/, where doubles read loose JSON, so it is not planted here.)
      const rules = result!.messages.map((m) => m.ruleId).sort();
      expect(rules).toEqual([
        '@typescript-eslint/consistent-type-imports',
        '@typescript-eslint/no-floating-promises',
        '@typescript-eslint/no-unused-vars',
        'eqeqeq',
        'no-var',
        'prefer-const',
        'require-yield',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
