import fp from 'fastify-plugin';
import type { App } from '../http/fastify-types.js';
import { RATE_LIMITS, type RateLimits } from '../http/rate-limits.js';
import type { Services } from '../services.js';
import type { ForwardingCheckStart } from '../ports/forwarding-check.js';
import type { TestTransfer } from '../ports/test-transfer.js';
import type { CodeCall } from '../ports/code-call.js';

/**
 * fastify/demo's second tier: the app's services as decorators, each a named plugin that
 * declares what it needs, so Fastify refuses to start when a route tree is registered without
 * the services it depends on. The services themselves are built by the composition root
 * (root/main.ts, `withAppServices`); these plugins only hand them to the routes.
 */
const servicesPlugin = fp(
  async (app: App, opts: { services: Services; rateLimits?: Partial<RateLimits>; testTransfer?: TestTransfer; forwardingCheck?: ForwardingCheckStart; codeCall?: CodeCall }) => {
    app.decorate('services', opts.services);
    app.decorate('rateLimits', { ...RATE_LIMITS, ...opts.rateLimits });
    app.decorate('testTransfer', opts.testTransfer ?? null);
    app.decorate('forwardingCheck', opts.forwardingCheck ?? null);
    app.decorate('codeCall', opts.codeCall ?? null);
  },
  { name: 'services' },
);

const numbersPlugin = fp(
  async (app: App) => {
    app.decorate('numbers', app.services.numbers);
  },
  { name: 'numbers', dependencies: ['services'] },
);

const webhooksPlugin = fp(
  async (app: App) => {
    app.decorate('webhooks', app.services.webhooks);
  },
  { name: 'webhooks', dependencies: ['services'] },
);

export async function registerAppServices(app: App, services: Services, opts: { rateLimits?: Partial<RateLimits>; testTransfer?: TestTransfer; forwardingCheck?: ForwardingCheckStart; codeCall?: CodeCall } = {}): Promise<void> {
  await app.register(servicesPlugin, { services, rateLimits: opts.rateLimits, testTransfer: opts.testTransfer, forwardingCheck: opts.forwardingCheck, codeCall: opts.codeCall });
  await app.register(numbersPlugin);
  await app.register(webhooksPlugin);
}
