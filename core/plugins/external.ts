import fastifyCookie from '@fastify/cookie';
import { registerConsole } from '../http/console-static.js';
import type { App } from '../http/fastify-types.js';
import { registerRateLimiting } from '../http/rate-limits.js';
import { registerSecurityHeaders } from '../http/security-headers.js';

/**
 * fastify/demo's first tier: the external plugins, registered in one place at the root before
 * any app plugin or route. Each is configured in its own module under core/http/.
 * - @fastify/cookie: the session cookie.
 * - @fastify/helmet: security headers on every answer (security-headers.ts).
 * - @fastify/rate-limit: `global: false`, so only routes that opt in (`config.rateLimit`) or
 *   count failures are limited (rate-limits.ts).
 * - @fastify/static: the built console with its precompressed .br/.gz files, which is also why
 *   there is no @fastify/compress (console-static.ts; API answers are small and personal).
 */
export async function registerExternalPlugins(app: App, consoleDir?: string): Promise<void> {
  await app.register(fastifyCookie);
  await registerSecurityHeaders(app);
  await registerRateLimiting(app);
  await registerConsole(app, consoleDir);
}
