// Issue 38, item 5, and issue 52, item 3: README's import rules (`root → pbx → core → dialogue →
// models`, `contract/` for all, the composition root root/ alone wiring core and pbx and imported
// by no product code, pbx reaching core only through core/ports/ and running no SQL, core/db
// knowing no capability, the console importing only contract/, no cycles) checked by
// dependency-cruiser with the project's .dependency-cruiser.cjs, on the real tree and on a planted
// tree that breaks each rule once and keeps each allowance once (so the check is seen to fail,
// and to fail only there).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
/** The folders `npm run check:imports` cruises, so the test and the script cannot drift apart. */
const FOLDERS = /depcruise (.+?) --config/.exec((JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['check:imports']!)![1]!.split(' ');

interface Violation { rule: { name: string }; from: string; to: string }

async function violations(cwd: string, folders: string[]): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...folders, '--config', CONFIG, '--output-type', 'json'], { cwd, maxBuffer: 64 * 1024 * 1024 })
    // The CLI exits non-zero when it finds violations; its report is still on stdout.
    .catch((e: { stdout?: string }) => { if (!e.stdout) throw e; return { stdout: e.stdout }; });
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('import rules', () => {
  it('the product keeps every rule README states', async () => {
    expect(FOLDERS).toEqual(expect.arrayContaining(['root', 'core', 'pbx', 'console/src']));
    expect((await violations(ROOT, FOLDERS)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);

  it('a planted tree breaking each rule once is caught, rule by rule', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
        'contract/shape.ts': "import { rule } from '../core/rule.js';\nexport const shape = rule;\n",
        'core/rule.ts': "export const rule = 1;\n",
        'core/service.ts': "import { flow } from '../pbx/flow.js';\nexport const service = flow;\n",
        // Allowed: the root imports core and pbx alike.
        'root/compose.ts': "import { flow } from '../pbx/flow.js';\nimport { service } from '../core/service.js';\nexport const root = flow + service;\n",
        'core/uses-root.ts': "import { root } from '../root/compose.js';\nexport const usesRoot = root;\n",
        // Allowed: pbx imports a port.
        'core/ports/port.ts': "export const port = 1;\n",
        'pbx/flow.ts': "import { db } from '../core/db/client.js';\nimport { port } from '../core/ports/port.js';\nexport const flow = db + port;\n",
        'pbx/uses-service.ts': "import { service } from '../core/service.js';\nexport const usesService = service;\n",
        // Allowed: the data layer uses the one back-off; not a capability.
        'core/time/backoff.ts': "export const backoff = 1;\n",
        'core/db/client.ts': "import { backoff } from '../time/backoff.js';\nimport { rule } from '../rule.js';\nexport const db = backoff + rule;\n",
        'dialogue/line.ts': "import { service } from '../core/service.js';\nexport const line = service;\n",
        'models/engine.ts': "import { line } from '../dialogue/line.js';\nexport const engine = line;\n",
        'core/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
        'core/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
        'core/uses-test.ts': "import { helper } from '../test/helper.js';\nexport const uses = helper;\n",
        'test/helper.ts': "export const helper = 1;\n",
        // Allowed: the console imports contract/, and its tests may compare it with a server rule.
        'console/src/page.ts': "import { shape } from '../../contract/shape.js';\nimport { rule } from '../../core/rule.js';\nexport const page = shape + rule;\n",
        'console/src/page.test.ts': "import { rule } from '../../core/rule.js';\nexport const checked = rule;\n",
      };
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      const found = (await violations(dir, FOLDERS)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
      expect(found).toEqual([
        'console-imports-only-contract: console/src/page.ts → core/rule.ts',
        'contract-depends-on-nothing: contract/shape.ts → core/rule.ts',
        'core-imports-no-pbx: core/service.ts → pbx/flow.ts',
        'db-imports-no-capability: core/db/client.ts → core/rule.ts',
        'dialogue-below-core: dialogue/line.ts → core/service.ts',
        'models-below-dialogue: models/engine.ts → dialogue/line.ts',
        'no-cycle: core/a.ts → core/b.ts',
        'nothing-imports-the-root: core/uses-root.ts → root/compose.ts',
        'pbx-reaches-core-through-ports: pbx/flow.ts → core/db/client.ts',
        'pbx-reaches-core-through-ports: pbx/uses-service.ts → core/service.ts',
        'pbx-runs-no-sql: pbx/flow.ts → core/db/client.ts',
        'product-imports-no-tests: core/uses-test.ts → test/helper.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
