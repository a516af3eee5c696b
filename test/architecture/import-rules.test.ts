// Issue 38, item 5: README's import rules (`pbx → core → dialogue → models`, `contract/` for all,
// core importing pbx only in its composition root core/root.ts, pbx running no SQL, no cycles) checked by
// dependency-cruiser with the project's .dependency-cruiser.cjs, on the real tree and on a planted
// tree that breaks each rule once (so the check is seen to fail).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

interface Violation { rule: { name: string }; from: string; to: string }

async function violations(cwd: string, folders: string[]): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...folders, '--config', CONFIG, '--output-type', 'json'], { cwd, maxBuffer: 64 * 1024 * 1024 })
    // The CLI exits non-zero when it finds violations; its report is still on stdout.
    .catch((e: { stdout?: string }) => { if (!e.stdout) throw e; return { stdout: e.stdout }; });
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('import rules', () => {
  it('the product keeps every rule README states', async () => {
    expect((await violations(ROOT, ['core', 'pbx', 'models', 'dialogue', 'contract'])).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);

  it('a planted tree breaking each rule once is caught, rule by rule', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
        'contract/shape.ts': "import { rule } from '../core/rule.js';\nexport const shape = rule;\n",
        'core/rule.ts': "export const rule = 1;\n",
        'core/service.ts': "import { flow } from '../pbx/flow.js';\nexport const service = flow;\n",
        'core/root.ts': "import { flow } from '../pbx/flow.js';\nexport const root = flow;\n",
        'core/db/client.ts': "export const db = 1;\n",
        'pbx/flow.ts': "import { db } from '../core/db/client.js';\nexport const flow = db;\n",
        'dialogue/line.ts': "import { service } from '../core/service.js';\nexport const line = service;\n",
        'models/engine.ts': "import { line } from '../dialogue/line.js';\nexport const engine = line;\n",
        'core/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
        'core/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
        'core/uses-test.ts': "import { helper } from '../test/helper.js';\nexport const uses = helper;\n",
        'test/helper.ts': "export const helper = 1;\n",
      };
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      const found = (await violations(dir, ['core', 'pbx', 'models', 'dialogue', 'contract'])).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
      expect(found).toEqual([
        'contract-depends-on-nothing: contract/shape.ts → core/rule.ts',
        'core-imports-pbx-only-at-the-root: core/service.ts → pbx/flow.ts',
        'dialogue-below-core: dialogue/line.ts → core/service.ts',
        'models-below-dialogue: models/engine.ts → dialogue/line.ts',
        'no-cycle: core/a.ts → core/b.ts',
        'pbx-runs-no-sql: pbx/flow.ts → core/db/client.ts',
        'product-imports-no-tests: core/uses-test.ts → test/helper.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
