import fastifyCookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { adminUserRoutes } from './admin/user-routes.js';
import { analyticsRoutes } from './analytics/routes.js';
import { agentPreviewRoutes } from './agent-preview/routes.js';
import { authRoutes } from './auth/routes.js';
import { callLogRoutes } from './calls/routes.js';
import { registerConsole } from './http/console-static.js';
import { registerErrorHandler } from './http/error-handler.js';
import type { App } from './http/fastify-types.js';
import { numberRoutes } from './numbers/routes.js';
import { registerSameOriginGuard } from './http/same-origin.js';
import { questionRoutes } from './questions/routes.js';
import { registerSessionHook } from './http/session-hook.js';
import { registerValidators } from './http/validators.js';
import type { Services } from './services.js';
import { settingsRoutes } from './settings/routes.js';
import { systemRoutes } from './system/routes.js';
import { registerMetrics } from './metrics/routes.js';
import { privacyRoutes } from './privacy/routes.js';

/** Route modules of later capabilities register here, each guarding its own routes. */
export type RouteModule = (app: App) => Promise<void>;

export interface BuildOptions {
  /** A pino logger; tests pass none and get silence. */
  logger?: FastifyBaseLogger;
  extraRoutes?: RouteModule[];
  consoleDir?: string;
}

/** Logging never carries secrets: cookies, passwords, tokens and authorisation headers are redacted. */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
];

export async function buildApp(services: Services, opts: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    trustProxy: true,
    bodyLimit: 256 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.decorate('services', services);
  await app.register(fastifyCookie);
  registerValidators(app);
  registerErrorHandler(app);
  registerSameOriginGuard(app);
  registerSessionHook(app);

  registerMetrics(app);
  await app.register(systemRoutes);
  await app.register(authRoutes);
  await app.register(settingsRoutes);
  await app.register(adminUserRoutes);
  await app.register(analyticsRoutes);
  await app.register(numberRoutes);
  await app.register(privacyRoutes);
  await app.register(questionRoutes);
  await app.register(agentPreviewRoutes);
  await app.register(callLogRoutes);
  for (const routes of opts.extraRoutes ?? []) await app.register(routes);
  await registerConsole(app, opts.consoleDir);
  return app;
}
