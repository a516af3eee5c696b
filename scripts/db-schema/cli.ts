// npm run db:schema: rewrites core/db/sqlite/schema.ts and core/db/pg/schema.ts from the
// declaration (core/db/declaration/tables.ts), and SQLite's counter triggers into their
// migration (scripts/db-schema/counter-triggers.ts). Then npm run db:generate and db:generate:pg.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { counterTriggersMigration } from './counter-triggers.js';
import { renderSchemas } from './render.js';

const root = process.cwd();
for (const { path, text } of [...renderSchemas(root), counterTriggersMigration(root)]) {
  const now = readFileSync(join(root, path), 'utf8');
  if (now === text) {
    console.log(`${path}: up to date`);
  } else {
    writeFileSync(join(root, path), text);
    console.log(`${path}: written`);
  }
}
