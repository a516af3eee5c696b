// What the console costs a browser: landing page and dashboard bytes on the wire (brotli and
// gzip as the core serves them, against the raw files), and the time from pressing "Log In"
// to the first call card for an owner with 150 calls, in Debian's Chromium. Figures only.
// Run: npx tsx bench/console-wire.ts   (BENCH_LOGINS sets how many cold logins are timed)
import { chromium, type Page } from 'playwright-core';
import { tablesOf } from '../core/db/schema.js';
import { activeCustomer } from '../test/helpers/accounts.js';
import { startTestServer } from '../test/helpers/server.js';
import { ensureConsoleBuilt } from '../test/e2e/support/build-console.js';
import { machine, percentile, report } from './lib/report.js';

const LOGINS = Number(process.env.BENCH_LOGINS ?? 7);
const CALLS = 150;

const server = await startTestServer({ consoleDir: ensureConsoleBuilt() });
const customer = await activeCustomer(server, { businessName: 'Bench Salon' });
const { calls } = tablesOf(server.database.db);
await server.database.db
  .insert(calls)
  .values(
    Array.from({ length: CALLS }, (_, i) => ({
      userId: customer.user.id,
      fromNumber: `+4477009${String(10000 + i)}`,
      toNumber: '+447700900999',
      status: (['answered', 'missed', 'voicemail'] as const)[i % 3]!,
      duration: 20 + (i % 200),
      createdAt: new Date(Date.now() - i * 3_600_000),
      aiSummary: 'Caller would like to book a cut and colour on Saturday morning and asks for a call back to confirm.',
    })),
  );

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});

/** The static files (document, JS, CSS) a page fetched, by path, in the order asked. */
function staticFiles(page: Page): string[] {
  const files: string[] = [];
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (!p.startsWith('/api/') && !files.includes(p)) files.push(p);
  });
  return files;
}

/** Bytes of those files in each encoding, as the core sends them. */
async function bytes(paths: string[]) {
  const sum = { raw: 0, gzip: 0, br: 0 };
  for (const url of paths) {
    for (const enc of ['identity', 'gzip', 'br'] as const) {
      const res = await server.app.inject({ method: 'GET', url, headers: { 'accept-encoding': enc } });
      sum[enc === 'identity' ? 'raw' : enc] += res.rawPayload.length;
    }
  }
  return sum;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const line = (s: { raw: number; gzip: number; br: number }) => `${kb(s.br)} brotli / ${kb(s.gzip)} gzip (raw ${kb(s.raw)})`;

interface Timing {
  card: number;
  login: number;
  calls: number;
}

async function logIn(page: Page): Promise<Timing> {
  await page.goto('/');
  await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).click();
  const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
  await dialog.getByLabel('Email').fill(customer.email);
  await dialog.getByLabel('Password').fill(customer.password);
  // Timed inside the page: from the click to the first call card in the DOM.
  // A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
  // It ends in undefined so that evaluate does not wait for the promise it stores.
  await page.evaluate(`window.firstCard = new Promise((resolve) => {
    const t0 = performance.now();
    new MutationObserver((_, obs) => {
      if (document.querySelector('[aria-label="Calls"] li')) {
        obs.disconnect();
        const done = (path) => {
          const e = performance.getEntriesByType('resource').find((r) => new URL(r.name).pathname === path && r.startTime >= t0);
          return e ? e.responseEnd - t0 : NaN;
        };
        resolve({ card: performance.now() - t0, login: done('/api/auth/login'), calls: done('/api/call-logs') });
      }
    }).observe(document.body, { childList: true, subtree: true });
  }); undefined`);
  await dialog.getByRole('button', { name: 'Log In' }).click();
  return page.evaluate<Timing>('window.firstCard');
}

// 1. Bytes: a fresh browser opens the landing page, then logs in to the dashboard.
{
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  const files = staticFiles(page);
  let negotiated = '';
  page.on('response', (r) => {
    if (r.url().includes('/assets/') && r.url().endsWith('.js')) negotiated ||= r.headers()['content-encoding'] ?? 'none';
  });
  await page.goto('/');
  await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
  await page.waitForLoadState('networkidle');
  const landingFiles = [...files];
  await logIn(page);
  await page.waitForLoadState('networkidle');
  const dashboardFiles = files.filter((f) => !landingFiles.includes(f));
  const landing = await bytes(landingFiles);
  const dashboard = await bytes(dashboardFiles);
  console.log(`landing page (${landingFiles.length} files): ${line(landing)}`);
  console.log(`dashboard after login, on top (${dashboardFiles.length} files): ${line(dashboard)}`);
  console.log(`Chromium (plain HTTP to 127.0.0.1) negotiated: ${negotiated}`);
  report({ bench: 'console', measure: 'landing page bytes on the wire (HTML + JS + CSS), brotli / gzip (raw)', value: line(landing) });
  report({ bench: 'console', measure: 'dashboard after login, further bytes on the wire, brotli / gzip (raw)', value: line(dashboard) });
  await ctx.close();
}

// 2. Time to the first call card, each login in a fresh browser context (cold cache).
const times: Timing[] = [];
for (let i = 0; i < LOGINS; i++) {
  const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  times.push(await logIn(await ctx.newPage()));
  await ctx.close();
}
const p = (k: keyof Timing) => percentile(times.map((t) => t[k]), 50).toFixed(0);
const p50 = p('card');
const max = Math.max(...times.map((t) => t.card)).toFixed(0);
console.log(`"Log In" pressed → first call card (${CALLS} calls, cold cache, ${LOGINS} logins): p50 ${p50} ms, max ${max} ms`);
console.log(`  of which, p50 from the press: login answered ${p('login')} ms (argon2id), call logs answered ${p('calls')} ms`);
report({ bench: 'console', measure: '"Log In" pressed → login answered / call logs answered, p50', value: `${p('login')} / ${p('calls')} ms` });
report({ bench: 'console', measure: `"Log In" pressed → first call card, ${CALLS} calls, cold cache, p50 / max`, value: `${p50} / ${max} ms` });
console.log(machine());
await browser.close();
await server.close();
