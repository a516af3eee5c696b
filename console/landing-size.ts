import type { Plugin, Rollup } from 'vite';
import { compressForWire } from './precompress.ts';

interface Wire {
  raw: number;
  gz: number;
  br: number;
}

/** A chunk and everything it imports statically, with the CSS they pull in, minus what `loaded` already has. */
function closure(bundle: Rollup.OutputBundle, roots: string[], loaded: Set<string>): Set<string> {
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    if (seen.has(fileName) || loaded.has(fileName)) return;
    seen.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk') return;
    chunk.imports.forEach(visit);
    chunk.viteMetadata?.importedCss.forEach((css: string) => !loaded.has(css) && seen.add(css));
  };
  roots.forEach(visit);
  return seen;
}

function wire(bundle: Rollup.OutputBundle, files: Iterable<string>): Wire {
  const total: Wire = { raw: 0, gz: 0, br: 0 };
  for (const name of files) {
    const item = bundle[name];
    const source = item?.type === 'chunk' ? item.code : item?.type === 'asset' ? item.source : '';
    const { br, gz } = compressForWire(typeof source === 'string' ? source : Buffer.from(source));
    total.raw += typeof source === 'string' ? Buffer.byteLength(source) : source.length;
    total.gz += gz.length;
    total.br += br.length;
  }
  return total;
}

const kb = (n: number) => (n / 1024).toFixed(1);
const line = (label: string, w: Wire, count: number) =>
  `${label}: ${kb(w.raw)} KB raw, ${kb(w.gz)} KB gzip, ${kb(w.br)} KB brotli on the wire (${count} file${count === 1 ? '' : 's'})`;

/**
 * Prints what a browser downloads, compressed as the core serves it (the build's own .br/.gz
 * files, console/precompress.ts): the landing page (entry chunk, its static imports and CSS)
 * and the dashboard on top of it (the shell and the Call Logs screen, lazy-loaded after login).
 * DESIGN.md budgets the landing page's JavaScript at 250 KB gzipped.
 */
export function landingSize(budgetKb = 250): Plugin {
  return {
    name: 'landing-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      if (!entry || entry.type !== 'chunk') return;
      const landing = closure(bundle, [entry.fileName], new Set());
      const landingJs = [...landing].filter((f) => f.endsWith('.js'));
      const js = wire(bundle, landingJs);
      const dashboardRoots = Object.values(bundle)
        .filter((c) => c.type === 'chunk' && /\/(layout\/DashboardLayout|pages\/customer\/CallLogs)\.tsx$/.test(c.facadeModuleId ?? ''))
        .map((c) => c.fileName);
      const dashboard = closure(bundle, dashboardRoots, landing);
      const jsKb = js.gz / 1024;
      const budget = `landing JS gzipped: ${jsKb.toFixed(1)} KB (${landingJs.length} chunk${landingJs.length === 1 ? '' : 's'}, budget ${budgetKb} KB)`;
      console.log(`\n${budget}`);
      console.log(line('landing page (JS + CSS)', wire(bundle, landing), landing.size));
      console.log(line('dashboard after login (more JS + CSS)', wire(bundle, dashboard), dashboard.size));
      if (jsKb > budgetKb) this.warn(`${budget}: over budget`);
    },
  };
}
