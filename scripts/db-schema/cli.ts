// npm run db:schema: rewrites core/db/sqlite/schema.ts and core/db/pg/schema.ts from the
// declaration (core/db/declaration/tables.ts). Then npm run db:generate and db:generate:pg.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSchemas } from './render.js';

const root = process.cwd();
for (const { path, text } of renderSchemas(root)) {
  const now = readFileSync(join(root, path), 'utf8');
  if (now === text) {
    console.log(`${path}: up to date`);
  } else {
    writeFileSync(join(root, path), text);
    console.log(`${path}: written`);
  }
}
