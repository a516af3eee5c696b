// core/db/sqlite/schema.ts and core/db/pg/schema.ts are written by `npm run db:schema` from the
// one declaration (core/db/declaration/tables.ts). A column added to the declaration without
// running it, or to a schema file by hand, leaves a file that differs from what the declaration
// gives: this test names the file and the command that puts it right.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSchemas } from '../../scripts/db-schema/render.js';

const root = join(import.meta.dirname, '../..');

describe('the schema files are the declaration written out', () => {
  it.each(renderSchemas(root).map((f) => [f.path, f.text] as const))('%s is what npm run db:schema writes', (path, text) => {
    const onDisk = readFileSync(join(root, path), 'utf8');
    expect(onDisk === text, `${path} differs from core/db/declaration/tables.ts: edit the declaration, then run npm run db:schema`).toBe(true);
  });

  it('points each file at its own dialect kit', () => {
    const kits = Object.fromEntries(renderSchemas(root).map((f) => [f.path, f.text.match(/from '\.\.\/\w+\/kit\.js'/g)]));
    expect(kits).toEqual({ 'core/db/sqlite/schema.ts': ["from '../sqlite/kit.js'"], 'core/db/pg/schema.ts': ["from '../pg/kit.js'"] });
  });
});
