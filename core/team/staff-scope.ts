import type { STAFF_VIEWS } from '../../contract/enums.js';

// What a staff member's own sign-in may do (issue 58 item 2), as pure rules: the session hook
// resolves the sign-in (staff-scope-store.ts), the access guard asks staffMayCall, and the
// lists ask personFilter. Nothing here reads the database.

type StaffView = (typeof STAFF_VIEWS)[number];

/** A staff member signed in with their own login, acting for their business. */
export interface StaffActor {
  staffId: number;
  name: string;
  view: StaffView;
  businessName: string | null;
  /** Their own users row (role 'staff'): their password and sessions are theirs, not the owner's. */
  loginUserId: number;
}

/** The refusal every route not open to staff answers with (403). */
export const OWNER_ONLY = 'Only the business owner can do that.';

/**
 * The routes a staff sign-in may call, by Fastify's route pattern. Everything else under /api
 * that needs a sign-in is refused (default deny): a route added later is closed to staff until
 * it is named here. What is left out on purpose: the team, numbers, billing, call handling, the
 * business's settings and knowledge base, webhooks, the business's export, admin.
 */
const STAFF_ROUTES: ReadonlySet<string> = new Set([
  // Their own password; /api/auth/me and logout are public routes.
  'POST /api/auth/change-password',
  'GET /api/call-logs',
  'GET /api/call-logs/:id',
  'GET /api/call-logs/:id/recording',
  'PATCH /api/call-logs/:id/called-back',
  // Issue 56: the call-backs of the calls in their view (ownRowsOnly), cancel and take it myself.
  'GET /api/call-backs',
  'POST /api/call-backs/:id/cancel',
  'POST /api/call-backs/:id/take',
  'GET /api/user/bookings',
  'GET /api/user/caller-texts',
  'GET /api/user/caller-texts/thread',
  'GET /api/unanswered-questions',
  'PATCH /api/unanswered-questions/:id/resolve',
  // Push alerts on their own phone (issue 54): their devices only; the owner's delayed text is not theirs.
  'GET /api/user/push/key',
  'GET /api/user/push/devices',
  'POST /api/user/push/devices',
  'PATCH /api/user/push/devices/:id',
  'DELETE /api/user/push/devices/:id',
  'POST /api/user/push/alerts/:alertId/opened',
  // The Live page (issue 54): the calls in their view (core/live/visibility.ts), End call on those.
  'GET /api/live/calls',
  'GET /api/live/events',
  'POST /api/live/calls/:id/end',
  // Issue 54: a live call they may see (ownRowsOnly: a view of 'own' only their own calls).
  'POST /api/live/calls/:id/listen',
  'POST /api/live/calls/:id/take-over',
]);

/** Whether a staff sign-in may call the route `method routePattern` (e.g. `GET /api/call-logs/:id`). */
export function staffMayCall(method: string, routePattern: string): boolean {
  const verb = method.toUpperCase();
  // Fastify answers HEAD with a GET route: it may read what the GET may.
  return STAFF_ROUTES.has(`${verb === 'HEAD' ? 'GET' : verb} ${routePattern}`);
}

/** Which person's rows a list shows: everyone's, one person's, or none (a person outside the viewer's scope). */
export type PersonFilter = { kind: 'all' } | { kind: 'person'; staffId: number } | { kind: 'none' };

/**
 * The person a list is narrowed to. The owner and a staff member who sees everything get the
 * person they asked for (`?staffId=`), or everyone; a staff member with view 'own' only ever
 * gets themselves, and asking for someone else gets nothing rather than the other's rows.
 */
export function personFilter(actor: StaffActor | null, requested: number | undefined): PersonFilter {
  if (actor?.view === 'own') {
    if (requested !== undefined && requested !== actor.staffId) return { kind: 'none' };
    return { kind: 'person', staffId: actor.staffId };
  }
  return requested === undefined ? { kind: 'all' } : { kind: 'person', staffId: requested };
}

/** The one person a single row (a call by id, a recording) must belong to for this viewer; undefined = any of the business's. */
export function ownRowsOnly(actor: StaffActor | null): number | undefined {
  return actor?.view === 'own' ? actor.staffId : undefined;
}

/** Whether a caller is among those a viewer may see (callersInView's set; undefined = all). A row with no number is the owner's to see. */
export function callerInView(inView: ReadonlySet<string> | undefined, callerNumber: string | null): boolean {
  return inView === undefined || (callerNumber !== null && inView.has(callerNumber));
}
