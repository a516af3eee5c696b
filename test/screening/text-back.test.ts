// The missed-call text-back never goes to a spam-marked caller (issue 43, the rule core/caller-texts
// left open): not to a number on the owner's spam list, nor on the box-wide list, even when the
// call was taken before the mark; a number the owner allowed, and any other caller, still get it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { markNumber } from '../../core/screening/marks.js';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { finishCall, giveNumber, outboxTo, textBackSettled } from '../caller-texts/helpers.js';

const DID = '+447700900001';
let server: TestServer | undefined;
afterEach(async () => {
  await server?.services.callerTexts.stop();
  await server?.close();
  server = undefined;
});

describe('text-back and the spam lists', { timeout: 90_000 }, () => {
  it('skips the owner\'s spam and box-listed numbers, texts an allowed one and anyone else', async () => {
    server = await startTestServer();
    server.services.callerTexts.start();
    const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
    await giveNumber(server, user.id, DID);
    expect((await (client as ApiClient).request('PUT', '/api/user/text-back', { enabled: true, wording: null, windowHours: 24, hours: 'always' })).status).toBe(200);
    const db = server.database.db;
    const now = new Date();
    await markNumber(db, user.id, '+447700900701', 'spam', now);
    // Each caller in its own range of 100: the flood rule sends one text-back per range.
    for (let i = 0; i < 3; i++) {
      const o = await activeCustomer(server);
      await markNumber(db, o.user.id, '+447700910702', 'spam', now);
      await markNumber(db, o.user.id, '+447700920703', 'spam', now);
    }
    await markNumber(db, user.id, '+447700920703', 'allow', now);

    for (const caller of ['+447700900701', '+447700910702']) {
      const id = await finishCall(server, user.id, DID, caller);
      await textBackSettled(server, id);
      expect(outboxTo(server, caller)).toEqual([]);
    }
    for (const caller of ['+447700920703', '+447700930704']) {
      await finishCall(server, user.id, DID, caller);
      await vi.waitFor(() => expect(outboxTo(server!, caller)).toHaveLength(1), { timeout: 20_000, interval: 20 });
    }
  });
});
