import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core's WCAG 2.0–2.2 A/AA rules on the page as it is now; serious and critical violations only. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated, not a <script> tag: the console's CSP allows no inline scripts.
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate<Violation[]>(`axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    }).then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)) })))`);
}
