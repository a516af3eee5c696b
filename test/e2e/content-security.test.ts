// Issue 13 item 5: the console runs under its Content-Security-Policy. Every screen of a
// short journey is opened in Chromium and any CSP violation the browser reports fails the
// test, as does a screen that does not render (a blocked script shows nothing).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { adminPage, customerPage, startE2E, type E2E, until } from './support/browser.js';

vi.setConfig({ testTimeout: 120_000 });

let e2e: E2E;
let ollama: OllamaDouble;
beforeAll(async () => {
  ollama = await startOllamaDouble();
  e2e = await startE2E({ OLLAMA_URL: ollama.url, TTS_ENGINE: 'espeak-ng' });
}, 180_000);
afterAll(async () => {
  await e2e?.close();
  await ollama?.close();
});

/** Collects what the browser blocks, from the DOM event and from its console. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('reportCspViolation', (v: string) => void seen.push(v));
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => window.reportCspViolation(e.violatedDirective + ' ' + e.blockedURI));",
  );
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

describe('the console under its Content-Security-Policy', () => {
  it('landing page, customer screens and the agent preview with audio run with no violation', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Csp Plumbing' });
    const violations = await watchViolations(page);
    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForURL('**/dashboard');
    for (const path of ['/dashboard/analytics', '/dashboard/questions', '/dashboard/account', '/dashboard/notifications']) {
      await page.goto(path);
      await page.getByRole('main').waitFor();
    }
    await page.getByRole('radio', { name: /AI Voice Agent/ }).check();
    await page.getByRole('textbox', { name: 'Knowledge Base' }).fill('Q: Do you cover Leeds?\nA: Yes.');
    ollama.script.push({ reply: '{"intent":"question","answered":true,"answer":"Yes, we cover Leeds."}' });
    await page.getByLabel("Caller's question").fill('Leeds?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await until(async () => expect(await page.getByTestId('agent-answer').textContent()).toBe('Yes, we cover Leeds.'));
    // The answer's audio loads from this origin (media-src 'self').
    const audio = page.getByLabel('Hear the answer');
    await audio.waitFor();
    await until(async () => expect(await audio.evaluate((a) => (a as unknown as { readyState: number }).readyState)).toBeGreaterThan(0));
    expect(violations).toEqual([]);
  });

  it('the admin screens and the signed-out landing page run with no violation', async () => {
    const { page } = await adminPage(e2e);
    const violations = await watchViolations(page);
    for (const path of ['/dashboard/admin', '/dashboard/approvals']) {
      await page.goto(path);
      await page.getByRole('main').waitFor();
    }
    const anon = await e2e.page();
    const anonViolations = await watchViolations(anon);
    await anon.goto('/');
    await anon.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).click();
    await anon.getByRole('dialog', { name: 'Welcome Back' }).waitFor();
    expect([...violations, ...anonViolations]).toEqual([]);
  });
});
