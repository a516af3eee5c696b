import type { RouteOptions } from 'fastify';
import type { App } from './fastify-types.js';

/**
 * Every /api route declares the JSON it answers (contract/schemas/): Fastify serialises with
 * the schema, so a field it does not list never leaves the server. A route that answers with
 * something else (audio, TwiML) says so with `config.rawReply`. Checked as each route is added,
 * so a route without either stops the server at start, not in production traffic.
 */
export function requireResponseSchemas(api: App): void {
  api.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config as { rawReply?: boolean } | undefined;
    if (route.schema?.response || config?.rawReply) return;
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    throw new Error(`${methods} ${route.url} declares no response schema: add one from contract/schemas/, or config.rawReply for a non-JSON answer`);
  });
}
