import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['core/', 'pbx/', 'models/', 'dialogue/', 'contract/', 'console/', 'deploy/', 'drizzle/', 'test/', 'bench/', 'eval/', 'docs/', 'scripts/', '.ci/', '../shared/'];

/** The repository paths a document names in backticks (`core/main.ts`, `pbx/flows/`). */
function namedPaths(doc: string): string[] {
  const text = fs.readFileSync(path.join(root, doc), 'utf8');
  const found = new Set<string>();
  for (const [, inner] of text.matchAll(/`([^`\s]+)`/g)) {
    const candidate = inner!.replace(/[,.;:]$/, '');
    if (ROOTS.some((r) => candidate.startsWith(r)) && !candidate.includes('<') && !candidate.includes('*')) found.add(candidate);
  }
  return [...found];
}

describe('the README is a map whose signs point at real rooms', () => {
  it('names at least the folders of the layout', () => {
    expect(namedPaths('README.md').length).toBeGreaterThan(20);
  });

  it('every path it names exists', () => {
    const missing = namedPaths('README.md').filter((p) => !fs.existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
  });

  it('stays short enough to read in one sitting', () => {
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(160);
  });
});
