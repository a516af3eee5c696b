import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { users } from '../db/schema.js';
import { createSession, deleteSession, SESSION_TTL_MS, userForSession } from './sessions.js';

let handle: DatabaseHandle | undefined;
afterEach(() => handle?.close());

describe('session lookup', () => {
  it('finds the user until the session expires, then never again; unknown and deleted ids find no one', () => {
    handle = openDatabase(':memory:');
    const { db } = handle;
    const user = db.insert(users).values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active' }).returning().get();
    const t0 = new Date('2026-11-22T10:00:00Z');
    const { id } = createSession(db, user.id, t0);
    expect(userForSession(db, id, new Date(t0.getTime() + 1000))?.email).toBe('owner@example.co.uk');
    expect(userForSession(db, id, new Date(t0.getTime() + SESSION_TTL_MS - 1))?.id).toBe(user.id);
    expect(userForSession(db, id, new Date(t0.getTime() + SESSION_TTL_MS))).toBeUndefined();
    expect(userForSession(db, `${id}x`, t0)).toBeUndefined();
    deleteSession(db, id);
    expect(userForSession(db, id, t0)).toBeUndefined();
  });
});
