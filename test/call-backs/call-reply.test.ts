// Issue 56: a caller's CALL reply to the missed-call text asks to be rung back. Through the real
// text-back job, the local inbox and the outbox, on SQLite and (TEST_DATABASE=postgres)
// PostgreSQL, with the server's clock on a Saturday so the due time is exact: the next open
// moment after the owner's window is Monday's 9am.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { startLocalInbox, type LocalInbox } from '../../core/followup/local-inbox.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dropText, finishCall, giveNumber, outboxTo, ownerTextsTo, textBackSettled } from '../caller-texts/helpers.js';

const DID = '+447700900060';
const CALLER = '+447700900311';
const OWNER_PHONE = '+447700900123';
const CONFIRMATION = "Thanks: we'll ring you back from this number.";
/** Saturday 12 December 2026, noon (GMT): the business (Monday to Friday, 9 to 5:30) is closed. */
const SATURDAY_NOON = Date.parse('2026-12-12T12:00:00Z');
const MONDAY_NINE = new Date('2026-12-14T09:00:00Z');

let server: TestServer | undefined;
let inbox: LocalInbox | undefined;
afterEach(async () => {
  await inbox?.stop();
  await server?.services.callerTexts.stop();
  await server?.close();
  server = inbox = undefined;
});

/** A business whose missed call from CALLER was texted back, with the call-back setting `by`. */
async function textedBack(by: 'owner' | 'agent-after' | 'agent-at-time'): Promise<{ client: ApiClient; userId: number }> {
  server = await startTestServer();
  server.clock.offsetMs = SATURDAY_NOON - Date.now();
  server.services.callerTexts.start();
  inbox = startLocalInbox(server.services, { watch: false });
  const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  await giveNumber(server, user.id, DID);
  expect((await client.request('PUT', '/api/user/text-back', { enabled: true, wording: null, windowHours: 24, hours: 'always' })).status).toBe(200);
  expect((await client.request('PUT', '/api/user/call-handling', { callBacksBy: by })).status).toBe(200);
  const callId = await finishCall(server, user.id, DID, CALLER);
  await textBackSettled(server, callId);
  expect(outboxTo(server, CALLER)).toHaveLength(1);
  return { client, userId: user.id };
}

const callBacksOf = async (userId: number) => {
  const { callBacks } = tablesOf(server!.database.db);
  return server!.database.db.select().from(callBacks).where(eq(callBacks.userId, userId));
};

const missedCallTextId = async (userId: number) => {
  const { callerTexts } = tablesOf(server!.database.db);
  return (await server!.database.db.select().from(callerTexts).where(and(eq(callerTexts.userId, userId), eq(callerTexts.kind, 'text-back'))))[0]!.id;
};

describe('a CALL reply to the missed-call text', () => {
  it('with the agent ringing back: one call-back due at the next open moment after the window, confirmed once; a second CALL moves it', async () => {
    const { client, userId } = await textedBack('agent-at-time');
    dropText(server!, 'c1.json', { from: CALLER, to: DID, body: 'call' });
    await inbox!.scan();
    const textId = await missedCallTextId(userId);
    expect(await callBacksOf(userId)).toEqual([expect.objectContaining({ source: 'text-reply', textId, firstCallId: null, callerNumber: CALLER, state: 'waiting', dueAt: MONDAY_NINE })]);
    expect(outboxTo(server!, CALLER).map((m) => m.body).slice(1)).toEqual([CONFIRMATION]);
    expect(outboxTo(server!, CALLER)[1]).toMatchObject({ from: DID });
    // The owner is told, so they may ring first.
    expect(ownerTextsTo(server!, OWNER_PHONE).map((m) => m.body)).toEqual([expect.stringMatching(/^Text from \+447700900311: "call"/)]);

    // Monday 5:25pm, the owner's wait now 30 minutes: past closing, so Tuesday's 9am; the waiting one moves, no row is added.
    server!.clock.offsetMs = Date.parse('2026-12-14T17:25:00Z') - Date.now();
    expect((await client.request('PUT', '/api/user/call-handling', { callBacksBy: 'agent-after', callBackAfterMinutes: 30 })).status).toBe(200);
    dropText(server!, 'c2.json', { from: CALLER, to: DID, body: ' CALL. ' });
    await inbox!.scan();
    const rows = await callBacksOf(userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'text-reply', state: 'waiting', dueAt: new Date('2026-12-15T09:00:00Z') });
    expect(outboxTo(server!, CALLER).map((m) => m.body).slice(1)).toEqual([CONFIRMATION, CONFIRMATION]);
  });

  it('from a number that texted STOP: no call-back and no confirmation', async () => {
    const { userId } = await textedBack('agent-after');
    dropText(server!, 's1.json', { from: CALLER, to: DID, body: 'STOP' });
    dropText(server!, 's2.json', { from: CALLER, to: DID, body: 'CALL' });
    await inbox!.scan();
    expect(await callBacksOf(userId)).toEqual([]);
    expect(outboxTo(server!, CALLER).map((m) => m.body).slice(1)).toEqual(['You will get no more texts from Hale Plumbing. Reply START to receive texts again.']);
  });

  it("with the owner ringing back: passed to the owner as any reply is, and nothing recorded", async () => {
    const { userId } = await textedBack('owner');
    dropText(server!, 'c1.json', { from: CALLER, to: DID, body: 'CALL' });
    await inbox!.scan();
    expect(await callBacksOf(userId)).toEqual([]);
    expect(outboxTo(server!, CALLER)).toHaveLength(1);
    expect(ownerTextsTo(server!, OWNER_PHONE).map((m) => m.body)).toEqual([expect.stringMatching(/^Text from \+447700900311: "CALL" Answer in the console: /)]);
  });

  it('"CALL" with other words, or from a number never sent the missed-call text, is a free reply', async () => {
    const { userId } = await textedBack('agent-at-time');
    dropText(server!, 'c1.json', { from: CALLER, to: DID, body: 'call me tomorrow' });
    dropText(server!, 'c2.json', { from: '+447700900399', to: DID, body: 'CALL' });
    await inbox!.scan();
    expect(await callBacksOf(userId)).toEqual([]);
    expect(outboxTo(server!, CALLER)).toHaveLength(1);
    expect(outboxTo(server!, '+447700900399')).toEqual([]);
    expect(ownerTextsTo(server!, OWNER_PHONE)).toHaveLength(2);
  });
});
