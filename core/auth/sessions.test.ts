import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { users } from '../../test/helpers/tables.js';
import { createSession, deleteSession, MAX_SESSIONS_PER_USER, SESSION_TTL_MS, userForSession } from './sessions.js';

let handle: DatabaseHandle | undefined;
afterEach(() => handle?.close());

describe('session lookup', () => {
  it('finds the user until the session expires, then never again; unknown and deleted ids find no one', async () => {
    handle = openDatabase(':memory:');
    const { db } = handle;
    const user = (await db.insert(users).values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active' }).returning())[0]!;
    const t0 = new Date('2026-11-22T10:00:00Z');
    const { id } = await createSession(db, user.id, t0);
    expect((await userForSession(db, id, new Date(t0.getTime() + 1000)))?.email).toBe('owner@example.co.uk');
    expect((await userForSession(db, id, new Date(t0.getTime() + SESSION_TTL_MS - 1)))?.id).toBe(user.id);
    expect(await userForSession(db, id, new Date(t0.getTime() + SESSION_TTL_MS))).toBeUndefined();
    expect(await userForSession(db, `${id}x`, t0)).toBeUndefined();
    await deleteSession(db, id);
    expect(await userForSession(db, id, t0)).toBeUndefined();
  });
});

describe('sessions per user', () => {
  it('keeps only the newest ten: the eleventh sign-in ends the oldest session and no other user’s', async () => {
    handle = openDatabase(':memory:');
    const { db } = handle;
    const owner = (await db.insert(users).values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active' }).returning())[0]!;
    const other = (await db.insert(users).values({ email: 'other@example.co.uk', passwordHash: 'x', accountStatus: 'active' }).returning())[0]!;
    const t0 = new Date('2026-11-22T10:00:00Z').getTime();
    const theirs = await createSession(db, other.id, new Date(t0));
    const ids: string[] = [];
    for (let i = 0; i <= MAX_SESSIONS_PER_USER; i++) ids.push((await createSession(db, owner.id, new Date(t0 + i * 1000))).id);
    const now = new Date(t0 + 60_000);
    expect(MAX_SESSIONS_PER_USER).toBe(10);
    expect(await userForSession(db, ids[0]!, now)).toBeUndefined();
    for (const id of ids.slice(1)) expect((await userForSession(db, id, now))?.id).toBe(owner.id);
    expect((await userForSession(db, theirs.id, now))?.id).toBe(other.id);
  });
});
