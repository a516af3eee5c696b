import { describe, expect, it } from 'vitest';
import { callerInView, ownRowsOnly, personFilter, staffMayCall, type StaffActor } from './staff-scope.js';

const actor = (view: StaffActor['view']): StaffActor => ({ staffId: 7, name: 'Sarah', view, businessName: 'Owner Ltd', loginUserId: 70 });

describe('staffMayCall', () => {
  it('opens the calls, bookings, texts and questions they may read, and their own password', () => {
    for (const r of ['GET /api/call-logs', 'GET /api/call-logs/:id/recording', 'PATCH /api/call-logs/:id/called-back', 'GET /api/user/bookings', 'POST /api/auth/change-password']) {
      const [method, url] = r.split(' ') as [string, string];
      expect(staffMayCall(method, url), r).toBe(true);
    }
    // HEAD is answered by a GET route.
    expect(staffMayCall('HEAD', '/api/call-logs/:id/recording')).toBe(true);
  });

  it('closes everything else, including writes beside an open read', () => {
    for (const r of ['POST /api/user/team/:id/invite', 'PUT /api/user/team/settings', 'PUT /api/user/call-handling', 'GET /api/user/export', 'POST /api/user/bookings/:id/cancel', 'POST /api/user/caller-texts/thread', 'PATCH /api/unanswered-questions/:id/add-to-kb', 'GET /api/admin/users', 'GET /api/call-logs/']) {
      const [method, url] = r.split(' ') as [string, string];
      expect(staffMayCall(method, url), r).toBe(false);
    }
  });
});

describe('personFilter', () => {
  it("gives the owner and a staff member who sees everything the person asked for, or everyone", () => {
    for (const a of [null, actor('everything')]) {
      expect(personFilter(a, undefined)).toEqual({ kind: 'all' });
      expect(personFilter(a, 3)).toEqual({ kind: 'person', staffId: 3 });
    }
  });

  it("keeps a staff member with view 'own' to themselves: someone else asked for is nothing", () => {
    expect(personFilter(actor('own'), undefined)).toEqual({ kind: 'person', staffId: 7 });
    expect(personFilter(actor('own'), 7)).toEqual({ kind: 'person', staffId: 7 });
    expect(personFilter(actor('own'), 3)).toEqual({ kind: 'none' });
  });
});

describe('ownRowsOnly and callerInView', () => {
  it("narrow single rows and callers for view 'own' only", () => {
    expect(ownRowsOnly(null)).toBeUndefined();
    expect(ownRowsOnly(actor('everything'))).toBeUndefined();
    expect(ownRowsOnly(actor('own'))).toBe(7);
    expect(callerInView(undefined, null)).toBe(true);
    expect(callerInView(new Set(['+447700900301']), '+447700900301')).toBe(true);
    expect(callerInView(new Set(['+447700900301']), '+447700900302')).toBe(false);
    expect(callerInView(new Set(['+447700900301']), null)).toBe(false);
  });
});
