import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { users } from '../helpers/tables.js';
import { transaction } from '../../core/db/transaction.js';

let dir: string;
let handle: DatabaseHandle;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tx-gate-'));
  handle = openDatabase(path.join(dir, 'a.db'));
});
afterEach(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const emails = async () => (await handle.db.select({ email: users.email }).from(users)).map((u) => u.email).sort();

describe('transaction (SQLite)', () => {
  it("keeps another task's write out of an open transaction: it survives the rollback and is not seen inside", async () => {
    const { db } = handle;
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let seenInside: string[] = [];
    let opened!: () => void;
    const isOpen = new Promise<void>((r) => (opened = r));
    const a = transaction(db, async (tx) => {
      await tx.insert(users).values({ email: 'a@example.co.uk', passwordHash: 'x' });
      opened();
      await paused; // task A awaits something while its transaction is open
      seenInside = (await tx.select({ email: users.email }).from(users)).map((u) => u.email);
      throw new Error('roll back');
    });
    await isOpen;
    const b = db.insert(users).values({ email: 'b@example.co.uk', passwordHash: 'x' }).then(() => 'written');
    release();
    await expect(a).rejects.toThrow('roll back');
    expect(await b).toBe('written');
    expect(seenInside).toEqual(['a@example.co.uk']);
    expect(await emails()).toEqual(['b@example.co.uk']);
  });

  it('commits when the body resolves, rolls back everything when it throws', async () => {
    const { db } = handle;
    await transaction(db, async (tx) => {
      await tx.insert(users).values({ email: 'kept@example.co.uk', passwordHash: 'x' });
    });
    await expect(
      transaction(db, async (tx) => {
        await tx.update(users).set({ businessName: 'Changed' }).where(eq(users.email, 'kept@example.co.uk'));
        await tx.insert(users).values({ email: 'kept@example.co.uk', passwordHash: 'x' }); // unique: throws
      }),
    ).rejects.toThrow();
    expect((await db.select().from(users)).map((u) => [u.email, u.businessName])).toEqual([['kept@example.co.uk', null]]);
  });

  it('runs transactions from two tasks one after the other, and a nested one as a savepoint', async () => {
    const { db } = handle;
    const order: string[] = [];
    const one = transaction(db, async (tx) => {
      order.push('one:start');
      await tx.insert(users).values({ email: 'one@example.co.uk', passwordHash: 'x' });
      await new Promise((r) => setImmediate(r));
      await expect(
        transaction(tx, async (inner) => {
          await inner.insert(users).values({ email: 'inner@example.co.uk', passwordHash: 'x' });
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
      order.push('one:end');
    });
    const two = transaction(db, async (tx) => {
      order.push('two:start');
      await tx.insert(users).values({ email: 'two@example.co.uk', passwordHash: 'x' });
      order.push('two:end');
    });
    await Promise.all([one, two]);
    expect(order).toEqual(['one:start', 'one:end', 'two:start', 'two:end']);
    expect(await emails()).toEqual(['one@example.co.uk', 'two@example.co.uk']);
  });
});
