import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Prints the gzipped size of the JavaScript the landing page loads: the entry chunk
 * and everything it imports statically. Lazy dashboard routes are not counted, which
 * is the point: DESIGN.md budgets the landing page at 250 KB gzipped.
 */
export function landingSize(budgetKb = 250): Plugin {
  return {
    name: 'landing-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      if (!entry || entry.type !== 'chunk') return;
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      let bytes = 0;
      for (const name of seen) {
        const chunk = bundle[name];
        if (chunk?.type === 'chunk') bytes += gzipSync(chunk.code).length;
      }
      const kb = bytes / 1024;
      const line = `landing JS gzipped: ${kb.toFixed(1)} KB (${seen.size} chunk${seen.size === 1 ? '' : 's'}, budget ${budgetKb} KB)`;
      console.log(`\n${line}`);
      if (kb > budgetKb) this.warn(`${line}: over budget`);
    },
  };
}
