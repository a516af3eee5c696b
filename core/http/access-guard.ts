import type { FastifyRequest } from 'fastify';
import { OWNER_ONLY, staffMayCall } from '../team/staff-scope.js';
import { forbidden, unauthorized } from './errors.js';
import type { App } from './fastify-types.js';

/**
 * Default deny on /api: every route needs a signed-in user unless its declaration says
 * otherwise (`config.access: 'public'` for the sign-in pages' routes, `'admin'` for the admin
 * screens; a `config.webhook` route checks its own signature). A route added without a word
 * is closed, not open, and closed to a staff member's sign-in until core/team/staff-scope.ts
 * names it.
 *
 * An onRequest hook, after the session hook: it answers before the body is parsed or validated,
 * so a signed-out caller gets 401 whatever it sent and never learns a route's schema from a 400.
 */
/** A route's `config` for the admin screens. */
export const ADMIN_ONLY = { access: 'admin' } as const;
/** A route's `config` for what a signed-out visitor may call (sign-in, sign-up, resets). */
export const PUBLIC = { access: 'public' } as const;

export function registerAccessGuard(api: App): void {
  api.addHook('onRequest', async (req) => guard(req));
}

function guard(req: FastifyRequest): void {
  const config = req.routeOptions.config;
  if (config?.webhook === true || config?.access === 'public') return;
  if (!req.user) throw unauthorized();
  // A staff sign-in reaches only the routes named open to staff (core/team/staff-scope.ts).
  if (req.staff && !staffMayCall(req.method, req.routeOptions.url ?? '')) throw forbidden(OWNER_ONLY);
  if (config?.access === 'admin' && req.user.role !== 'admin') throw forbidden('Administrators only.');
}
