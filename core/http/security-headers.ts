import fastifyHelmet from '@fastify/helmet';
import type { App } from './fastify-types.js';

/**
 * Response headers for every page and API answer (@fastify/helmet). The CSP is one the
 * built console satisfies: Vite emits only external module scripts and one stylesheet,
 * audio (recordings, agent previews) comes from this origin, and nothing may frame it.
 * HSTS only when the console is reached over HTTPS: on plain http it would be ignored at
 * best, and it pins nothing useful on localhost.
 */
export async function registerSecurityHeaders(app: App): Promise<void> {
  const https = app.services.config.publicUrl.startsWith('https:');
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        mediaSrc: ["'self'"],
        connectSrc: ["'self'"],
        // The console's service worker and web app manifest (issue 54), both from this origin.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The reset link's token is in the path: never send it on to another site.
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
  });
}

/**
 * Answers of the API are personal data or session state: no browser or proxy may keep
 * them (the export included). Routes that stream audio set their own policy first.
 */
export function registerNoStore(api: App): void {
  api.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
