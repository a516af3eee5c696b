// Issue 56: a voicemail that says "ring me back". The real post-call pipeline (the Ollama double
// summarises) settles each voicemail, whose transcript is stored as the transcription step
// leaves it; then the sweep's hook reads the caller's words. The server's clock is Thursday
// 10 December 2026, 10:00 London (GMT), open by the default hours (Mon–Fri 09:00–17:30).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCallHandling } from '../../core/call-handling/defaults.js';
import { saveCallHandling } from '../../core/call-handling/store.js';
import { tablesOf, type CallBackRow } from '../../core/db/schema.js';
import type { CallBackDial, CallBackDialResult } from '../../core/ports/call-back-dialler.js';
import { activeCustomer } from '../helpers/accounts.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { insertCalls } from '../calls/seed.js';
import { FAST } from '../pipeline/harness.js';

const engines = useEngineDoubles({ summary: 'Wants a call back about a leaking tap.' });
const dials: CallBackDial[] = [];
const dialler = async (d: CallBackDial): Promise<CallBackDialResult> => (dials.push(d), { placed: true, outcome: 'answered', callId: null });

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
const DID = '+447700900060';
let nextCaller = 700;

beforeAll(async () => {
  server = await startTestServer({
    // The sweep's own timer never fires within a test.
    env: { ...engines.env(), CALL_BACK_SWEEP_MS: '3600000' },
    background: { pipeline: true, callBacks: true },
    postCall: { options: FAST },
    callBackDialler: dialler,
  });
  server.clock.offsetMs = Date.parse('2026-12-10T10:00:00.000Z') - Date.now();
  owner = await activeCustomer(server, { businessName: 'Tap Plumbing' });
}, 120_000);
afterAll(() => server?.close());

const db = () => server.database.db;
const now = () => server.services.now();

async function by(callBacksBy: 'owner' | 'agent-after' | 'agent-at-time', callBackAfterMinutes = 15): Promise<void> {
  await saveCallHandling(db(), owner.user.id, { ...defaultCallHandling(), callBacksBy, callBackAfterMinutes }, now());
}

/** A voicemail whose transcript is `words`, left at `endedAt` (default now), finished and settled by the pipeline. */
async function voicemail(words: string, endedAt = now()): Promise<number> {
  const caller = `+447700900${nextCaller++}`;
  const [call] = await insertCalls(server, [{
    userId: owner.user.id, status: 'voicemail', mode: 'voicemail', fromNumber: caller, toNumber: DID,
    createdAt: new Date(endedAt.getTime() - 40_000), endedAt, transcription: words, transcriptionStatus: 'done',
  }]);
  for (const finished of server.services.hooks.callFinished) finished(call!.id);
  const { calls } = tablesOf(db());
  // Settled: the summary is stored and the owner texted, after which the hook has run.
  await waitUntil(async () => {
    const [row] = await db().select().from(calls).where(eq(calls.id, call!.id));
    if (row?.summaryStatus !== 'done' || !row.notificationSent) throw new Error('not settled yet');
  }, 30_000);
  return call!.id;
}

async function callBackOf(callId: number): Promise<CallBackRow | undefined> {
  const { callBacks } = tablesOf(db());
  return (await db().select().from(callBacks).where(eq(callBacks.firstCallId, callId)))[0];
}

/** The call-back recorded for `callId`, once the settled hook has written it. */
const recorded = (callId: number) => waitUntil(async () => (await callBackOf(callId)) ?? Promise.reject(new Error('no call-back yet')), 10_000);

describe("a voicemail's \"ring me back\"", () => {
  it("'agent-at-time': \"ring me back after four\" is a call-back at 4pm that day, from the voicemail", async () => {
    await by('agent-at-time');
    const id = await voicemail("Hi, it's Sam about the leaking tap. Could you ring me back after four? Thanks.");
    const row = await recorded(id);
    expect(row).toMatchObject({ source: 'voicemail', state: 'waiting', userId: owner.user.id, tries: 0 });
    expect(row.dueAt.toISOString()).toBe('2026-12-10T16:00:00.000Z');
    expect(dials).toEqual([]);
  });

  it("'agent-after': the caller's time moves the owner's window call-back, counted from when they spoke and never inside the window", async () => {
    await by('agent-after', 30);
    // Left at 09:50 and settled later: the owner's window alone would ring at 10:20.
    const id = await voicemail('Please call me back after four, it is about a new boiler.', new Date('2026-12-10T09:50:00.000Z'));
    await waitUntil(async () => expect((await recorded(id)).dueAt.toISOString()).toBe('2026-12-10T16:00:00.000Z'), 10_000);
    // "at ten past ten", said at 09:50 with a 30-minute window: the window's end, not 10:10.
    const early = await voicemail('Could you ring me back at ten past ten?', new Date('2026-12-10T09:50:00.000Z'));
    expect((await recorded(early)).dueAt.toISOString()).toBe('2026-12-10T10:20:00.000Z');
  });

  it("no call-back when the owner rings back themselves, or the voicemail asks for none", async () => {
    await by('owner');
    const theirs = await voicemail('Could you ring me back after four?');
    await by('agent-at-time');
    const noWish = await voicemail("Don't call me back, I'll ring again tomorrow.");
    // A call the box placed later is recorded by then: these two stay without one.
    const control = await voicemail('Can someone call me back this afternoon?');
    await recorded(control);
    expect(await callBackOf(theirs)).toBeUndefined();
    expect(await callBackOf(noWish)).toBeUndefined();
  });
});
