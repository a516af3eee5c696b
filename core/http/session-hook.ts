import type { FastifyRequest } from 'fastify';
import { withTrialChecked } from '../accounts/users.js';
import { SESSION_COOKIE, userForSession } from '../auth/sessions.js';
import type { User } from '../db/schema.js';
import { unauthorized } from './errors.js';
import type { App } from './fastify-types.js';

/** Statuses that may hold a session: an expired trial may still sign in to see its data. */
const CAN_SIGN_IN: ReadonlySet<User['accountStatus']> = new Set(['active', 'expired']);

export function canSignIn(u: User): boolean {
  return u.role === 'admin' || CAN_SIGN_IN.has(u.accountStatus);
}

/** Registered on the /api scope: every API route, however its URL was spelt, sees the session. */
export function registerSessionHook(app: App): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (req) => {
    // A webhook acts for whoever its signed body names, never for a browser's session.
    if (req.routeOptions.config?.webhook === true) return;
    const sid = req.cookies[SESSION_COOKIE];
    if (!sid) return;
    const { database, now } = app.services;
    const found = await userForSession(database.db, sid, now());
    if (!found) return;
    const user = await withTrialChecked(database.db, found, now());
    if (!canSignIn(user)) return;
    req.user = user;
    req.sessionId = sid;
  });
}

/** The signed-in user inside a route the access guard let through for a user (access-guard.ts). */
export function currentUser(req: FastifyRequest): User {
  if (!req.user) throw unauthorized();
  return req.user;
}
