import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, vi } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SESSION_HINT_COOKIE } from '../../../contract/session-hint.js';
import { ADMIN, activeCustomer, signInAdmin } from '../../helpers/accounts.js';
import type { ApiClient } from '../../helpers/client.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../../helpers/server.js';
import { ensureConsoleBuilt, repoRoot } from './build-console.js';

// Debian's Chromium, headless, with everything that would reach the network switched off.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface E2E {
  server: TestServer;
  browser: Browser;
  /** A fresh browser context (its own cookies and storage) and a page in it. */
  page(opts?: { width?: number; height?: number; dark?: boolean; clipboard?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

/** The real server with the built console, and one Chromium for the file's tests. */
export async function startE2E(env: Record<string, string> = {}, serverOpts: Pick<TestServerOptions, 'setup' | 'webhooks' | 'booking' | 'website' | 'background'> = {}): Promise<E2E> {
  const consoleDir = ensureConsoleBuilt();
  const server = await startTestServer({ consoleDir, env, ...serverOpts });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    async page(opts = {}) {
      // The console's service worker (issue 54) is tested in pwa.test.ts. Here it is blocked:
      // Playwright's page.route does not see requests a worker answers, and no test should pay
      // for its precache.
      const ctx = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 }, baseURL: server.url, serviceWorkers: 'block' });
      if (opts.dark) await ctx.addInitScript("localStorage.setItem('theme', 'dark')");
      if (opts.clipboard) await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      contexts.push(ctx);
      const page = await ctx.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      await server.close();
    },
  };
}

/**
 * The file's appliance and browser: started before its first test, closed after its last.
 * The returned E2E may be used by the tests once they run.
 */
export function useE2E(env: Record<string, string> = {}, testTimeoutMs = 90_000, serverOpts: Pick<TestServerOptions, 'setup' | 'webhooks' | 'booking' | 'website' | 'background'> = {}): E2E {
  vi.setConfig({ testTimeout: testTimeoutMs });
  let started: E2E | undefined;
  beforeAll(async () => {
    started = await startE2E(env, serverOpts);
  }, 180_000);
  afterAll(async () => started?.close());
  return new Proxy({} as E2E, {
    get(_target, prop) {
      if (!started) throw new Error('the e2e appliance is used before beforeAll started it');
      return Reflect.get(started, prop);
    },
  });
}

/** Hands an API client's session cookie to the browser: seeded users start signed in. */
export async function adoptSession(page: Page, client: ApiClient, url: string): Promise<void> {
  const [name, ...rest] = (client.cookie ?? '').split('=');
  if (!name || !rest.length) throw new Error('the API client has no session cookie');
  // With the session hint a signed-in browser gets beside it (contract/session-hint.ts).
  await page.context().addCookies([
    { name, value: rest.join('='), url },
    { name: SESSION_HINT_COOKIE, value: '1', url },
  ]);
}

export async function customerPage(e2e: E2E, overrides: Record<string, string> = {}, opts?: Parameters<E2E['page']>[0], account?: Parameters<typeof activeCustomer>[2]) {
  const customer = await activeCustomer(e2e.server, overrides, account);
  const page = await e2e.page(opts);
  await adoptSession(page, customer.client, e2e.server.url);
  return { page, customer };
}

export async function adminPage(e2e: E2E, opts?: Parameters<E2E['page']>[0]) {
  const admin = await signInAdmin(e2e.server);
  const page = await e2e.page(opts);
  await adoptSession(page, admin, e2e.server.url);
  return { page, admin, credentials: ADMIN };
}

/** Signs in through the login dialog, as a person would. */
export async function logInThroughDialog(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).click();
  const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * Waits until the visible toast reads as expected (a substring or a pattern of its title and
 * description). Toasts replace each other (at most one is shown), so it waits for the right one.
 */
export async function expectToast(page: Page, expected: string | RegExp): Promise<void> {
  await until(async () => {
    const shown = (await page.getByTestId('toast').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).join(' | ');
    const ok = typeof expected === 'string' ? shown.includes(expected) : expected.test(shown);
    if (!ok) throw new Error(`toast reads "${shown}", expected ${String(expected)}`);
  });
}

/** Where a screenshot goes: test-results/screenshots/, kept with the test report. */
export function screenshotPath(name: string): string {
  const dir = path.join(repoRoot, 'test-results', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}

type Annotate = (message: string, type?: string, attachment?: { path?: string; contentType?: string }) => Promise<unknown>;

/** Takes a screenshot into test-results/screenshots/ and attaches it to the running test's output. */
export async function attachScreenshot(page: Page, annotate: Annotate, name: string, opts: { fullPage?: boolean } = {}): Promise<string> {
  const file = screenshotPath(name);
  await page.screenshot({ path: file, fullPage: opts.fullPage ?? true });
  await annotate(name, 'screenshot', { path: file, contentType: 'image/png' });
  return file;
}

/** Every mail in the outbox, decoded from quoted-printable, oldest first. */
export function outboxMails(server: TestServer): string[] {
  const dir = path.join(server.dataDir, 'outbox', 'mail');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort() : [];
  return files.map((f) =>
    fs
      .readFileSync(path.join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
  );
}

/** Waits for a condition the page reaches asynchronously (a render, a transition), for up to 10 s. */
export function until<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 10_000, interval: 100 });
}
