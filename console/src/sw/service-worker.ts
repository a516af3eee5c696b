/// <reference lib="webworker" />
// The console's service worker (issue 54): makes the console installable, shows a plain offline
// page when the box cannot be reached, and turns the box's push alerts into notifications whose
// buttons act. It never keeps data: /api answers are not cached (no route matches them, so they
// go to the network as if there were no worker), and pages are always fetched from the box.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute, setCatchHandler } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';
import { markDoneRequest, notificationFor, parsePayload, planClick, type ShownAlert } from './alert-actions';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** The page a navigation gets when the box does not answer (console/public/offline.html). */
const OFFLINE_PAGE = '/offline.html';
const ICON = '/icons/icon-192.png';

// An upgrade of the box takes over at once: the new worker does not wait for every tab to
// close, claims the open ones, and drops the old build's precache (the stale-chunk rule,
// console/src/upgrade/chunk-reload.ts, then covers a tab still running the old code).
void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();

// The build's hashed assets, the icons and the offline page (vite.config.ts lists them; index.html
// is left out, so a page is never the old build's).
precacheAndRoute(self.__WB_MANIFEST);

/** A reverse proxy in front of a stopped core answers 502/503/504: to the owner that is the box not answering. */
const GATEWAY_DOWN = new Set([502, 503, 504]);

// Pages: the network only, so nothing shown is ever stale; the offline page when it fails.
registerRoute(
  new NavigationRoute(
    new NetworkOnly({
      plugins: [
        {
          fetchDidSucceed: async ({ response }) => {
            if (GATEWAY_DOWN.has(response.status)) throw new Error(`the box's proxy answered ${response.status}`);
            return response;
          },
        },
      ],
    }),
    { denylist: [/^\/api(\/|$)/] },
  ),
);

setCatchHandler(async ({ request }) => {
  if (request.mode === 'navigate') return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  return Response.error();
});

// The fields of NotificationOptions only Chromium knows (TypeScript's DOM types leave `actions` out).
type AlertOptions = NotificationOptions & { actions: { action: string; title: string }[] };

self.addEventListener('push', (event) => {
  let text: string | null = null;
  try {
    text = event.data?.text() ?? null;
  } catch {
    text = null;
  }
  const maxActions = (Notification as unknown as { maxActions?: number }).maxActions;
  const shown = notificationFor(parsePayload(text), maxActions);
  const options: AlertOptions = { body: shown.body, data: shown.data, actions: shown.actions, icon: ICON };
  if (shown.tag) options.tag = shown.tag;
  event.waitUntil(self.registration.showNotification(shown.title, options));
});

/** Opens a console page in the owner's open console window when there is one, else in a new one. */
async function openPage(target: string): Promise<void> {
  if (target.startsWith('tel:')) {
    await self.clients.openWindow(target);
    return;
  }
  const url = new URL(target, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const win of windows) {
    if (new URL(win.url).origin !== self.location.origin) continue;
    // focus() needs the click's user activation; navigate() works on a window this worker controls.
    await win.focus().catch(() => undefined);
    const moved = await win.navigate(url).catch(() => null);
    if (moved) return;
  }
  await self.clients.openWindow(url);
}

/**
 * What a click on an alert (action '') or one of its buttons does. Reporting the alert opened
 * (which may stop a delayed text) runs beside the action and never stops it. Mark done that the
 * box refuses (signed out, the call gone) opens the alert's page, where the owner sees why.
 */
async function handleAlertClick(action: string, shown: ShownAlert): Promise<void> {
  const plan = planClick(action, shown);
  const reported = plan.reportOpened ? fetch(plan.reportOpened, { method: 'POST', credentials: 'same-origin' }).catch(() => undefined) : undefined;
  let open = plan.open;
  if (plan.markDone !== null) {
    const { path, init } = markDoneRequest(plan.markDone);
    const response = await fetch(path, init).catch(() => null);
    if (!response?.ok) open = shown.url;
  }
  if (open) await openPage(open).catch(() => undefined);
  await reported;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(handleAlertClick(event.action, event.notification.data as ShownAlert));
});
