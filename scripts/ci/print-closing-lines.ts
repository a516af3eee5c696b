import { existsSync, readFileSync } from 'node:fs';
import { closingLines, type RunSummary } from './closing-lines.js';

// `npx tsx scripts/ci/print-closing-lines.ts vitest postgres`: .ci/run's closing lines, one
// run after another, from test-results/<run>-summary.json.
for (const run of process.argv.slice(2)) {
  const file = `test-results/${run}-summary.json`;
  const summary = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunSummary) : undefined;
  for (const line of closingLines(run, summary)) console.log(line);
}
