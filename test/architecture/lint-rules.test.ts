// Issue 38, item 5: the linter (eslint.config.mjs) is seen to fail on a planted breach of each
// of its rules, so `npm run lint` passing in CI means something. The planted file is written
// inside test/ for the duration of the test, because the type-aware rules need it in a project.
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

// React's own rules hold for the console's code alone (console/src/), so their breaches are planted there.
const PLANTED_HOOKS = `import { useState } from 'react';

export function Planted({ on }: { on: boolean }) {
  if (on) {
    const [n] = useState(0);
    return <p>{n}</p>;
  }
  return null;
}
`;

const PLANTED_A11Y = `export function Planted({ go }: { go: () => void }) {
  return (
    <div>
      <img src="/logo.svg" />
      <div onClick={go}>Go</div>
    </div>
  );
}
`;

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

/** The rules the linter reports for `source` written at `dir`/planted.tsx: the file is gone after. */
async function rulesBroken(dir: string, name: string, source: string): Promise<string[]> {
  const planted = fs.mkdtempSync(path.join(ROOT, dir, 'planted-'));
  const file = path.join(planted, name);
  fs.writeFileSync(file, source);
  try {
    const [result] = await new ESLint({ cwd: ROOT }).lintFiles([file]);
    return result!.messages.map((m) => m.ruleId ?? m.message).sort();
  } finally {
    fs.rmSync(planted, { recursive: true, force: true });
  }
}

describe('lint rules', () => {
  it('a planted file breaking each rule once is caught, rule by rule', async () => {
    // (no-explicit-any is off under test/, where doubles read loose JSON, so it is not planted here.)
    expect(await rulesBroken('test/architecture', 'planted.ts', PLANTED)).toEqual([
      '@typescript-eslint/consistent-type-imports',
      '@typescript-eslint/no-floating-promises',
      '@typescript-eslint/no-unused-vars',
      'eqeqeq',
      'no-var',
      'prefer-const',
      'require-yield',
    ]);
  }, 180_000);

  it("a hook called only on some renders is caught in the console (React's rules of hooks)", async () => {
    expect(await rulesBroken('console/src', 'Planted.tsx', PLANTED_HOOKS)).toEqual(['react-hooks/rules-of-hooks']);
  }, 180_000);

  it('an image without alternative text and a clickable div without a keyboard are caught in the console (jsx-a11y)', async () => {
    expect(await rulesBroken('console/src', 'Planted.tsx', PLANTED_A11Y)).toEqual([
      'jsx-a11y-x/alt-text',
      'jsx-a11y-x/click-events-have-key-events',
      'jsx-a11y-x/no-static-element-interactions',
    ]);
  }, 180_000);
});
