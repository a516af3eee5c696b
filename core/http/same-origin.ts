import type { App } from './fastify-types.js';
import { HttpError } from './errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing requests are accepted only as JSON (or with no body) and only
 * from the console's own origin. A cross-site HTML form can send neither JSON
 * nor a matching Origin, so together with SameSite=Lax this closes CSRF.
 * Registered on the /api scope, so it runs for every API route however its URL was spelt.
 */
export function registerSameOriginGuard(app: App): void {
  app.addHook('onRequest', async (req) => {
    if (SAFE.has(req.method)) return;
    // Set on the route by its declaration (after routing, so any spelling of its URL), never
    // by the request: a webhook route checks its own signature instead (core/twilio/webhook-routes.ts).
    if (req.routeOptions.config?.webhook === true) return;
    const type = req.headers['content-type'];
    // A route taking a recording (config.wavBody) takes a WAV too: no cross-site form can send
    // that type either, and a cross-site fetch of it needs a CORS preflight that is never granted.
    const wav = req.routeOptions.config?.wavBody === true && type !== undefined && /^audio\/(wav|wave|x-wav)\b/i.test(type);
    if (type !== undefined && !wav && !/^application\/json\b/i.test(type)) {
      throw new HttpError(415, 'Requests must be sent as JSON (Content-Type: application/json).');
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      throw new HttpError(403, 'Cross-site requests are not accepted.');
    }
    const origin = req.headers.origin;
    if (origin === undefined) return; // non-browser clients (curl, tests) send none
    // req.host reads X-Forwarded-Host only from a trusted proxy (TRUST_PROXY).
    const host = req.host;
    const allowed = new Set([new URL(app.services.config.publicUrl).origin]);
    if (host) {
      allowed.add(`http://${host}`);
      allowed.add(`https://${host}`);
    }
    if (!allowed.has(origin)) throw new HttpError(403, 'Cross-site requests are not accepted.');
  });
}
