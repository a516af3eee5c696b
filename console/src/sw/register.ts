// Registers the console's service worker (console/src/sw/service-worker.ts, built to /service-worker.js) in
// the built console, and keeps an installed console off old code: a console on a phone's home
// screen is resumed for days without a page load, so each resume asks the box for its worker,
// and a new one that took over (an upgrade) reloads the page at the next resume, when the owner
// has not yet started anything on it.
import { Workbox } from 'workbox-window';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const wb = new Workbox('/service-worker.js', { scope: '/' });
  let upgraded = false;
  wb.addEventListener('controlling', (event) => {
    if (event.isUpdate) upgraded = true;
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    if (upgraded) window.location.reload();
    else void wb.update().catch(() => undefined);
  });
  // After the page's own requests: the worker's precache must not compete with the first paint.
  const start = () => void wb.register().catch(() => undefined);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
