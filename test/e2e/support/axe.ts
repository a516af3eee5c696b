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

/**
 * axe-core's WCAG 2.0–2.2 A/AA rules on the page as it is now; serious and critical violations
 * only; then the fit check (`sidewaysAt320`), reported as one more violation, so every state a
 * test hands to axe is also proven not to scroll sideways on the narrowest phone.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  const found = await axeViolations(page);
  const sideways = await sidewaysAt320(page);
  return sideways ? [...found, { id: 'sideways-scroll', impact: 'serious', help: 'The page scrolls sideways at 320 px', nodes: [sideways] }] : found;
}

/**
 * Resolves once no CSS transition runs: a control just pressed is mid-way through its colour
 * transition (seen in CI: a selected filter's text at 1.88:1 on its half-changed background),
 * and after a resize the sidebar slides back in. Transitions only: a spinner's endless
 * animation never ends. Polled with evaluate, not waitForFunction: its string predicate is
 * eval'd in the page, which the console's CSP refuses.
 */
async function transitionsDone(page: Page): Promise<void> {
  await vi.waitFor(async () => {
    if (await page.evaluate<boolean>('document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === "running")')) {
      throw new Error('a transition is still running');
    }
  }, { timeout: 10_000, interval: 50 });
}

async function axeViolations(page: Page): Promise<Violation[]> {
  await transitionsDone(page);
  // Evaluated, not a <script> tag: the console's CSP allows no inline scripts.
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate<Violation[]>(`axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    }).then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)) })))`);
}

const NARROWEST = 320;

/** The next frame after the one that follows a resize: media queries and React have re-rendered. */
const twoFrames = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))';

/**
 * The fit check: the page as it is now, narrowed to 320 px, must not scroll sideways
 * (document.documentElement.scrollWidth <= clientWidth); null when it fits, else what it
 * measured. The viewport is put back afterwards, so the test carries on where it was. A layout
 * that settles late (a transition, a re-render) is given until the bound to fit.
 */
async function sidewaysAt320(page: Page): Promise<string | null> {
  const size = page.viewportSize();
  if (!size) throw new Error('the fit check needs a page with a fixed viewport');
  if (size.width !== NARROWEST) await page.setViewportSize({ width: NARROWEST, height: size.height });
  let measured: { scroll: number; client: number; path: string } | null = null;
  try {
    await page.evaluate(twoFrames);
    await vi.waitFor(async () => {
      measured = await page.evaluate<{ scroll: number; client: number; path: string }>(`(() => {
        const client = document.documentElement.clientWidth;
        const past = (e) => e.getBoundingClientRect().right > client + 0.5;
        // The innermost elements reaching past the edge: what a fix has to wrap or shrink.
        const culprits = Array.from(document.body.querySelectorAll('*'))
          .filter((e) => past(e) && !Array.from(e.children).some(past))
          .slice(0, 4)
          .map((e) => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' "' + (e.textContent || '').trim().slice(0, 40) + '" to ' + Math.round(e.getBoundingClientRect().right) + ' px');
        return {
          scroll: document.documentElement.scrollWidth,
          client,
          path: location.pathname + location.search + (culprits.length ? ' (past the edge: ' + culprits.join('; ') + ')' : ''),
        };
      })()`);
      if (measured.scroll > measured.client) throw new Error('still scrolls sideways');
    }, { timeout: 3_000, interval: 100 }).catch(() => undefined);
  } finally {
    if (size.width !== NARROWEST) {
      await page.setViewportSize(size);
      await page.evaluate(twoFrames);
      await transitionsDone(page);
    }
  }
  const m = measured as { scroll: number; client: number; path: string } | null;
  if (!m) throw new Error('the fit check could not measure the page');
  return m.scroll > m.client ? `${m.path} at ${NARROWEST} px: scrollWidth ${m.scroll} > clientWidth ${m.client}` : null;
}

/**
 * The same checks with the console in dark mode (the class the theme toggle sets on <html>),
 * then back to light, so a test that built a state checks both themes on it without building it
 * twice (issue 57: the new screens had been checked in light only).
 */
export async function darkSeriousViolations(page: Page): Promise<Violation[]> {
  const wasDark = await page.evaluate<boolean>('document.documentElement.classList.contains("dark")');
  if (!wasDark) await page.evaluate('document.documentElement.classList.add("dark")');
  try {
    return (await seriousViolations(page)).map((v) => ({ ...v, id: `dark: ${v.id}` }));
  } finally {
    if (!wasDark) {
      await page.evaluate('document.documentElement.classList.remove("dark")');
      await transitionsDone(page);
    }
  }
}
