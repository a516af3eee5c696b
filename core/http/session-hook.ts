import type { FastifyRequest } from 'fastify';
import { withTrialChecked } from '../accounts/users.js';
import { SESSION_COOKIE, userForSession } from '../auth/sessions.js';
import type { Db } from '../db/client.js';
import type { User } from '../db/schema.js';
import type { StaffActor } from '../team/staff-scope.js';
import { resolveStaffSignIn } from '../team/staff-scope-store.js';
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
  app.decorateRequest('staff', null);
  app.addHook('onRequest', async (req) => {
    // A webhook acts for whoever its signed body names, never for a browser's session.
    if (req.routeOptions.config?.webhook === true) return;
    const sid = req.cookies[SESSION_COOKIE];
    if (!sid) return;
    const { database, now } = app.services;
    const found = await userForSession(database.db, sid, now());
    if (!found) return;
    const signedIn = await actingUser(database.db, found, now());
    if (!signedIn) return;
    req.user = signedIn.user;
    req.staff = signedIn.staff;
    req.sessionId = sid;
  });
}

/**
 * Who a session acts as. A staff login (issue 58) acts for its business: `user` is the owner,
 * so every route's owner-scoped queries stay the business's, and `staff` says who is really
 * signed in; it signs in only while they are a current member and the business itself may.
 */
export async function actingUser(db: Db, login: User, now: Date): Promise<{ user: User; staff: StaffActor | null } | undefined> {
  if (login.role === 'staff') {
    if (!canSignIn(login)) return undefined;
    const business = await resolveStaffSignIn(db, login);
    if (!business) return undefined;
    const owner = await withTrialChecked(db, business.owner, now);
    return canSignIn(owner) && owner.role === 'customer' ? { user: owner, staff: business.actor } : undefined;
  }
  const user = await withTrialChecked(db, login, now);
  return canSignIn(user) ? { user, staff: null } : undefined;
}

/** The signed-in user inside a route the access guard let through for a user (access-guard.ts). */
export function currentUser(req: FastifyRequest): User {
  if (!req.user) throw unauthorized();
  return req.user;
}
