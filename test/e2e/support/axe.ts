import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { vi } from 'vitest';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core's WCAG 2.0–2.2 A/AA rules on the page as it is now; serious and critical violations only. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // A control just pressed is mid-way through its colour transition (seen in CI: a selected
  // filter's text at 1.88:1 on its half-changed background); judge the colours it settles on.
  // Transitions only: a spinner's endless animation never ends.
  // Polled with evaluate, not waitForFunction: its string predicate is eval'd in the page,
  // which the console's CSP refuses.
  await vi.waitFor(async () => {
    if (await page.evaluate<boolean>('document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === "running")')) {
      throw new Error('a colour transition is still running');
    }
  }, { timeout: 10_000, interval: 50 });
  // Evaluated, not a <script> tag: the console's CSP allows no inline scripts.
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate<Violation[]>(`axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    }).then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)) })))`);
}
