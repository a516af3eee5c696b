// Issue 54 item 1 and the worker's half of item 2, in Chromium: the console installs (its service
// worker controls the page; the manifest and its icons are what it declares), a push delivered
// through the DevTools protocol shows a notification with the buttons, Mark done marks the call on
// the box and Reply opens the caller's thread ready to type (the reply lands in the outbox), the
// offline page shows when the box cannot be reached (and no call data with it), and a new build's
// worker takes over on the next load.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pushOpenedPath, type PushAlert } from '../../contract/push-alert.js';
import { giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { calls } from '../helpers/tables.js';
import { CHROMIUM_ARGS, adoptSession, attachScreenshot, until } from './support/browser.js';
import { ensureConsoleBuilt } from './support/build-console.js';

vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
let browser: Browser;
/** A copy of the built console the server serves, so the upgrade test can change it. */
let consoleDir: string;
/** The chunk the upgrade test's next build adds: on disk from the start, as the core serves only the files it found when it started. */
const NEXT_CHUNK = 'build-Next0001.js';
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pwa-console-'));
  fs.cpSync(ensureConsoleBuilt(), consoleDir, { recursive: true });
  fs.writeFileSync(path.join(consoleDir, 'assets', NEXT_CHUNK), "window.__consoleBuild = 'next';\n");
  server = await startTestServer({ consoleDir });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}, 240_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
  await browser?.close();
  await server?.close();
  fs.rmSync(consoleDir, { recursive: true, force: true });
});

/** A signed-in owner's page at `origin` (the server, or a pipe in front of it), allowed to notify. */
async function ownerPage(origin = server.url, business = 'Pwa Plumbing') {
  const customer = await activeCustomer(server, { businessName: business });
  const ctx = await browser.newContext({ viewport: { width: 375, height: 800 }, baseURL: origin });
  contexts.push(ctx);
  await ctx.grantPermissions(['notifications'], { origin });
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  await adoptSession(page, customer.client, origin);
  return { ctx, page, customer };
}

/** Waits until the console's worker controls the page (it claims the page on its first install). */
async function controlled(page: Page): Promise<string> {
  return await vi.waitFor(
    async () => {
      const url = await page.evaluate<string | null>('navigator.serviceWorker.controller?.scriptURL ?? null');
      if (!url) throw new Error('no service worker controls the page yet');
      return url;
    },
    { timeout: 60_000, interval: 200 },
  );
}

/** The worker of the context, to evaluate in its own scope. */
async function workerOf(ctx: BrowserContext): Promise<Worker> {
  return await vi.waitFor(
    () => {
      const w = ctx.serviceWorkers().find((s) => s.url().endsWith('/service-worker.js'));
      if (!w) throw new Error('no service worker in the context yet');
      return w;
    },
    { timeout: 30_000, interval: 100 },
  );
}

/** Delivers a push to the page's worker through the DevTools protocol, as the push service would. */
async function deliverPush(page: Page, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  const origin = new URL(page.url()).origin;
  const registration = await vi.waitFor(
    () => {
      const r = registrations.find((x) => x.scopeURL === `${origin}/` && !x.isDeleted);
      if (!r) throw new Error('the worker registration is not reported yet');
      return r;
    },
    { timeout: 15_000, interval: 100 },
  );
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registration.registrationId, data });
  await cdp.detach();
}

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  actions: { action: string; title: string }[];
}

/** The notifications the worker shows, read back in the page. */
async function notifications(page: Page, tag?: string): Promise<ShownNotification[]> {
  return await page.evaluate<ShownNotification[]>(`(async () => {
    const reg = await navigator.serviceWorker.ready;
    const shown = await reg.getNotifications(${tag ? JSON.stringify({ tag }) : 'undefined'});
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, actions: (n.actions ?? []).map((a) => ({ action: a.action, title: a.title })) }));
  })()`);
}

async function shownWith(page: Page, tag: string): Promise<ShownNotification> {
  return await until(async () => {
    const [n] = await notifications(page, tag);
    if (!n) throw new Error(`no notification tagged ${tag} yet`);
    return n;
  });
}

/**
 * Clicks a notification's button in the worker's own scope: headless Chromium has no screen to
 * click, so the worker is sent the event its notificationclick listener handles. The worker's
 * fetch is watched first, to see the alert reported opened.
 */
async function clickInWorker(worker: Worker, tag: string, action: string): Promise<void> {
  await worker.evaluate(
    async ({ tag: t, action: a }) => {
      const scope = globalThis as unknown as {
        registration: { getNotifications(o: { tag: string }): Promise<unknown[]> };
        fetch: typeof fetch;
        fetched?: string[];
        dispatchEvent(e: Event): boolean;
        NotificationEvent: new (type: string, init: { notification: unknown; action: string }) => Event;
      };
      if (!scope.fetched) {
        scope.fetched = [];
        const original = scope.fetch.bind(scope);
        scope.fetch = (input, init) => {
          scope.fetched!.push(`${init?.method ?? 'GET'} ${String(input)}`);
          return original(input, init);
        };
      }
      const [notification] = await scope.registration.getNotifications({ tag: t });
      if (!notification) throw new Error(`no notification tagged ${t}`);
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification, action: a }));
    },
    { tag, action },
  );
}

const fetchedBy = (worker: Worker) => worker.evaluate(() => (globalThis as unknown as { fetched?: string[] }).fetched ?? []);

function alert(over: Partial<PushAlert> & Pick<PushAlert, 'alertId' | 'tag'>): PushAlert {
  return { v: 1, kind: 'call', title: 'Jane Smith', body: 'Boiler leaking in the kitchen', urgent: false, url: '/dashboard', sentAt: new Date().toISOString(), ...over };
}

/** The paths the worker's caches hold, read in the page (a script: the test's types have no DOM). */
const CACHED_PATHS = `(async () => {
  const urls = [];
  for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
  return urls;
})()`;
const cachedPaths = (page: Page) => page.evaluate<string[]>(CACHED_PATHS);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the installable console', () => {
  it('serves a valid manifest with icons of the declared sizes, and its worker controls the page', async () => {
    const manifestRes = await fetch(`${server.url}/manifest.webmanifest`);
    expect(manifestRes.status).toBe(200);
    expect(manifestRes.headers.get('cache-control')).toBe('no-cache');
    const manifest = (await manifestRes.json()) as { name: string; short_name: string; start_url: string; display: string; scope: string; icons: { src: string; sizes: string; purpose?: string }[] };
    expect(manifest).toMatchObject({ name: 'CallKeeper', short_name: 'CallKeeper', start_url: '/dashboard', display: 'standalone', scope: '/' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const res = await fetch(`${server.url}${icon.src}`);
      expect(res.status, icon.src).toBe(200);
      const [w, h] = icon.sizes.split('x').map(Number);
      expect(pngSize(Buffer.from(await res.arrayBuffer())), icon.src).toEqual({ width: w, height: h });
    }
    const worker = await fetch(`${server.url}/service-worker.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(worker.headers.get('content-type')).toMatch(/javascript/);

    const { page } = await ownerPage();
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect(pngSize(Buffer.from(await (await fetch(`${server.url}${appleIcon}`)).arrayBuffer()))).toEqual({ width: 180, height: 180 });
    expect(await page.locator('meta[name="apple-mobile-web-app-capable"]').getAttribute('content')).toBe('yes');
    expect(await controlled(page)).toBe(`${server.url}/service-worker.js`);

    // The precache holds the build's assets and the offline page, never a page or an API answer.
    const cached = await cachedPaths(page);
    expect(cached).toContain('/offline.html');
    expect(cached.some((u) => u.startsWith('/assets/') && u.endsWith('.js'))).toBe(true);
    expect(cached.filter((u) => u.startsWith('/api') || u === '/' || u.endsWith('index.html') || u.startsWith('/dashboard'))).toEqual([]);
  });
});

describe('push alerts in the worker', () => {
  it('shows the caller and summary with the buttons that matter, and a plain "New call" for a push it cannot read', async () => {
    const { page } = await ownerPage(server.url, 'Alert Plumbing');
    await page.goto('/dashboard');
    await controlled(page);
    await deliverPush(page, JSON.stringify(alert({ alertId: 'show-1', tag: 'call-show-1', callId: 1, callBack: '+447700900123', replyUrl: '/dashboard/texts?caller=%2B447700900123' })));
    expect(await shownWith(page, 'call-show-1')).toEqual({
      title: 'Jane Smith',
      body: 'Boiler leaking in the kitchen',
      tag: 'call-show-1',
      actions: [
        { action: 'call-back', title: 'Call back' },
        { action: 'mark-done', title: 'Mark done' },
      ],
    });
    await deliverPush(page, JSON.stringify(alert({ alertId: 'show-2', tag: 'call-show-2', callId: 2, callBack: '+447700900123', live: true })));
    expect((await shownWith(page, 'call-show-2')).actions.map((a) => a.title)).toEqual(['Listen', 'Call back']);
    // A newer payload keeps its words but offers no buttons (contract/push-alert.ts); garbage is a plain "New call".
    await deliverPush(page, JSON.stringify({ ...alert({ alertId: 'show-3', tag: 'call-show-3', callId: 3, callBack: '+447700900123' }), v: 2, title: 'Sam', body: 'Newer' }));
    expect(await shownWith(page, 'call-show-3')).toEqual({ title: 'Sam', body: 'Newer', tag: 'call-show-3', actions: [] });
    await deliverPush(page, '%%% not json');
    await until(async () => expect((await notifications(page)).filter((n) => n.title === 'New call')).toEqual([expect.objectContaining({ title: 'New call', actions: [] })]));
  });

  it('Mark done marks the call called back on the box, and the alert is reported opened', async () => {
    const { ctx, page, customer } = await ownerPage(server.url, 'Done Plumbing');
    const [call] = await server.database.db
      .insert(calls)
      .values({ userId: customer.user.id, fromNumber: '+447700900777', toNumber: '+447700900070', status: 'voicemail', endedAt: new Date(), aiSummary: 'Wants a quote for a new boiler' })
      .returning();
    await page.goto('/dashboard');
    await controlled(page);
    const before = (await customer.client.get(`/api/call-logs/${call!.id}`)).body as { callLog: { calledBackAt: string | null } };
    expect(before.callLog.calledBackAt).toBeNull();
    await deliverPush(page, JSON.stringify(alert({ alertId: 'done-1', tag: `call-${call!.id}`, callId: call!.id, callBack: '+447700900777' })));
    await shownWith(page, `call-${call!.id}`);
    const worker = await workerOf(ctx);
    await clickInWorker(worker, `call-${call!.id}`, 'mark-done');
    await until(async () => {
      const row = await server.database.db.select().from(calls).where(eq(calls.id, call!.id));
      expect(row[0]?.calledBackAt).toBeInstanceOf(Date);
    });
    const after = (await customer.client.get(`/api/call-logs/${call!.id}`)).body as { callLog: { calledBackAt: string | null } };
    expect(after.callLog.calledBackAt).not.toBeNull();
    expect(await fetchedBy(worker)).toEqual(expect.arrayContaining([`POST ${pushOpenedPath('done-1')}`, `PATCH /api/call-logs/${call!.id}/called-back`]));
    // Marking opens nothing: the owner stays where they were.
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });

  it('Reply opens the caller\'s thread with the reply box focused, and the reply sent lands in the outbox', async ({ annotate }) => {
    const { ctx, page, customer } = await ownerPage(server.url, 'Reply Plumbing');
    const did = '+447700900081';
    const caller = '+447700900881';
    await giveNumber(server, customer.user.id, did);
    // Texts go only to the business's callers: this one rang and left no message.
    await server.database.db.insert(calls).values({ userId: customer.user.id, fromNumber: caller, toNumber: did, status: 'missed', endedAt: new Date() });
    await page.goto('/dashboard');
    await controlled(page);
    await deliverPush(page, JSON.stringify(alert({ alertId: 'reply-1', tag: 'call-reply', replyUrl: `/dashboard/texts?caller=${encodeURIComponent(caller)}` })));
    expect((await shownWith(page, 'call-reply')).actions).toEqual([{ action: 'reply', title: 'Reply' }]);
    await clickInWorker(await workerOf(ctx), 'call-reply', 'reply');
    await page.waitForURL((u) => u.pathname === '/dashboard/texts' && u.searchParams.get('caller') === caller && u.searchParams.get('reply') === '1');
    const box = page.getByRole('textbox', { name: 'Your reply' });
    await box.waitFor();
    await until(async () => expect(await box.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true));
    // Typed into whatever has the focus: the reply box, as the owner's thumb would.
    await page.keyboard.type('On my way, 20 minutes.');
    await attachScreenshot(page, annotate, 'pwa-reply-375');
    await page.getByRole('button', { name: 'Send Text' }).click();
    await until(() => expect(outboxTo(server, caller)).toEqual([expect.objectContaining({ from: did, body: 'On my way, 20 minutes.' })]));
  });
});

/** A TCP pipe to the server: the box as the phone reaches it, which the test can cut. */
async function startPipe(target: string): Promise<{ url: string; cut(): Promise<void> }> {
  const port = Number(new URL(target).port);
  const sockets = new Set<net.Socket>();
  const pipe = net.createServer((inbound) => {
    const outbound = net.connect(port, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => pipe.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(pipe.address() as net.AddressInfo).port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        pipe.close(() => resolve());
      }),
  };
}

describe('when the box cannot be reached', () => {
  it('a page load shows the offline page in plain words and none of the calls shown before', async ({ annotate }) => {
    const pipe = await startPipe(server.url);
    const { page, customer } = await ownerPage(pipe.url, 'Offline Plumbing');
    await server.database.db.insert(calls).values({ userId: customer.user.id, fromNumber: '+447700900999', toNumber: '+447700900090', status: 'voicemail', endedAt: new Date(), aiSummary: 'Radiator cold upstairs' });
    await page.goto('/dashboard');
    await page.getByText('Radiator cold upstairs').first().waitFor();
    await controlled(page);

    await pipe.cut();
    await page.reload();
    await page.getByRole('heading', { name: 'The box cannot be reached' }).waitFor();
    expect(await page.getByText('Radiator cold upstairs').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Try again' }).count()).toBe(1);
    await attachScreenshot(page, annotate, 'pwa-offline-375');
  });
});

describe('an upgrade of the box', () => {
  it('a new build\'s worker takes over on the next load, and the old build\'s files leave the precache', async () => {
    const { page } = await ownerPage(server.url, 'Upgrade Plumbing');
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    await controlled(page);

    // The next build, as the box's upgrade brings it: index.html names a new chunk, and the
    // worker's precache list changes (a chunk of the old build goes, the new one comes), so the
    // worker's bytes differ. Compressed copies of the changed files are removed, so the server
    // sends the new ones.
    const html = fs.readFileSync(path.join(consoleDir, 'index.html'), 'utf8');
    const next = NEXT_CHUNK;
    fs.writeFileSync(path.join(consoleDir, 'index.html'), html.replace('</head>', `<script type="module" src="/assets/${next}"></script></head>`));
    const sw = fs.readFileSync(path.join(consoleDir, 'service-worker.js'), 'utf8');
    const old = /"url":"assets\/(Analytics-[^"]+\.js)"/.exec(sw)![1]!;
    fs.writeFileSync(path.join(consoleDir, 'service-worker.js'), sw.replace(`assets/${old}`, `assets/${next}`));
    for (const file of ['index.html', 'service-worker.js']) for (const ext of ['.br', '.gz']) fs.rmSync(path.join(consoleDir, file + ext), { force: true });
    expect(await cachedPaths(page)).toContain(`/assets/${old}`);
    expect(await (await fetch(`${server.url}/dashboard`, { headers: { 'accept-encoding': 'br, gzip' } })).text()).toContain(next);

    await page.reload();
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    // The page is the new build's at once (pages never come from the worker's cache)...
    expect(await page.evaluate(() => (globalThis as unknown as { __consoleBuild?: string }).__consoleBuild)).toBe('next');
    // ...and the new worker installs, takes over without waiting for the tab to close, and drops the old build's chunk.
    await vi.waitFor(
      async () => {
        const paths = await cachedPaths(page);
        expect(paths).toContain(`/assets/${next}`);
        expect(paths).not.toContain(`/assets/${old}`);
      },
      { timeout: 60_000, interval: 250 },
    );
    const state = await page.evaluate(`(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { waiting: !!reg?.waiting, active: reg?.active?.state, controller: navigator.serviceWorker.controller?.state };
    })()`);
    expect(state).toEqual({ waiting: false, active: 'activated', controller: 'activated' });
  });
});
