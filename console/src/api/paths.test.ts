// The console's server paths live in this folder only: a page names a call (login, saveWebhook), never a URL.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(import.meta.dirname, '..');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));

describe('console API paths', () => {
  it('appear only under console/src/api', () => {
    const outside = files(src)
      .filter((f) => !relative(src, f).startsWith('api/') && !f.endsWith('.test.ts'))
      .filter((f) => /['"`]\/api\//.test(readFileSync(f, 'utf8')))
      .map((f) => relative(src, f));
    expect(outside).toEqual([]);
  });
});
