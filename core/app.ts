import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { apiScope } from './http/api-scope.js';
import { registerErrorHandler } from './http/error-handler.js';
import type { App } from './http/fastify-types.js';
import { LOG_SERIALIZERS } from './http/log-redaction.js';
import type { RateLimits } from './http/rate-limits.js';
import { registerValidators } from './http/validators.js';
import type { Services } from './services.js';
import type { ForwardingCheckStart } from './ports/forwarding-check.js';
import type { TestTransfer } from './ports/test-transfer.js';
import type { CodeCall } from './ports/code-call.js';
import { systemRoutes } from './system/routes.js';
import { registerMetrics } from './metrics/routes.js';
import { registerAppServices } from './plugins/app-services.js';
import { registerExternalPlugins } from './plugins/external.js';
import type { CallMyLineRegistry } from './call-my-line/registry.js';
import { attachCallMyLineProxy } from './call-my-line/ws-proxy.js';
import type { LiveLineRegistry } from './live-control/line-registry.js';
import { liveLineKind } from './live-control/proxy-kind.js';
import type { LiveCallControl } from './ports/live-listen.js';
import type { StripeEventHandlers } from './payments/parts.js';

export interface BuildOptions {
  /** A pino logger; tests pass none and get silence. */
  logger?: FastifyBaseLogger;
  consoleDir?: string;
  /** Replaces some of RATE_LIMITS (test servers whose fixtures sign many owners up from one address). */
  rateLimits?: Partial<RateLimits>;
  /** The PBX's test call to an owner's phone (startPbx's); without it the route says how to set it up. */
  testTransfer?: TestTransfer;
  /** The PBX's forwarding check (startPbx's); without it the route says how to set it up. */
  forwardingCheck?: ForwardingCheckStart;
  /** The PBX's call reading a code to a team member's landline (startPbx's); without it a landline is refused. */
  codeCall?: CodeCall;
  /** The PBX's test calls for the console's "Call my line" (startPbx's); without them the route says why. */
  callMyLine?: CallMyLineRegistry;
  /** Listen in and take over (issue 54): the lines' registry and the PBX's side, both or neither. */
  live?: { lines: LiveLineRegistry; control: LiveCallControl };
  /** Stripe's events go to these (deposits, billing: core/payments/parts.ts); without them an event is refused and Stripe retries it. */
  payments?: { handlers: StripeEventHandlers };
}

export async function buildApp(services: Services, opts: BuildOptions = {}): Promise<App> {
  // Serializers on a child win over Fastify's defaults, which log the request URL as sent
  // (a reset token, a caller's number).
  const logger = opts.logger?.child({}, { serializers: LOG_SERIALIZERS });
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // Off unless the operator names their reverse proxy: otherwise the client picks its own address.
    trustProxy: services.config.trustProxy,
    bodyLimit: 256 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // fastify/demo's tiers: app services (decorators), external plugins, then the route trees.
  await registerAppServices(app, services, opts);
  await registerExternalPlugins(app, opts.consoleDir);
  registerValidators(app);
  registerErrorHandler(app);

  registerMetrics(app);
  await app.register(systemRoutes);
  const callMyLine = opts.callMyLine ?? null;
  if (callMyLine) attachCallMyLineProxy(app, callMyLine, callMyLine.wsUrl, opts.live ? [liveLineKind(opts.live.lines)] : []);
  await app.register(apiScope, { callMyLine, live: opts.live ?? null, stripeHandlers: opts.payments?.handlers });
  return app;
}
