import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls, phoneNumbers } from '../helpers/tables.js';
import { NOT_IN_SERVICE, unavailableMessage } from '../../dialogue/spoken/call-lines.js';
import { APP, CALLER, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ timeScale: 20 });
});
afterAll(async () => {
  await h?.close();
});

async function rows(channelId: string) {
  return await h.server.database.db.select().from(calls).where(eq(calls.channelId, channelId));
}

describe('routing inbound calls by DID', () => {
  it('a call to a DID nobody owns hears "not in service", is hung up, and leaves no call row', async () => {
    const call = h.sim.call({ app: APP, from: CALLER, did: '+447700900555' });
    const outcome = await call.done;
    expect(outcome.heard).toEqual([await h.prompt(NOT_IN_SERVICE, 'female')]);
    expect(outcome.hungUpBy).toBe('app');
    expect(outcome.answered).toBe(true);
    expect(await rows(call.channelId)).toEqual([]);
  });

  it('a call to a released number is out of service even though it once had an owner', async () => {
    const biz = await h.business({ businessName: 'Gone Ltd' });
    await h.server.database.db.update(phoneNumbers).set({ releasedAt: new Date() }).where(eq(phoneNumbers.phoneNumber, biz.did));
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did });
    const outcome = await call.done;
    expect(outcome.heard).toEqual([await h.prompt(NOT_IN_SERVICE, 'female')]);
    expect(await rows(call.channelId)).toEqual([]);
  });

  it('a DID delivered in national format (07…) reaches the business stored as +44…', async () => {
    const biz = await h.business({ businessName: 'National Format Ltd' }, '+447700900777');
    const call = h.sim.call({ app: APP, from: CALLER, did: '07700900777', script: { hangupAfterMs: 60_000 } });
    await vi.waitFor(async () => expect(await rows(call.channelId)).toHaveLength(1));
    expect((await rows(call.channelId))[0]!.userId).toBe(biz.userId);
    h.sim.hangupCaller(call.channelId);
    await call.done;
  });

  it.each(['pending_approval', 'suspended', 'rejected', 'expired'] as const)(
    'a caller to a %s business hears a polite message in the owner’s voice and the call is logged as missed',
    async (status) => {
      const biz = await h.business({ businessName: 'Paused Bakery', accountStatus: status, voicePreference: 'male' });
      const call = h.sim.call({ app: APP, from: CALLER, did: biz.did });
      const outcome = await call.done;
      expect(outcome.heard).toEqual([await h.prompt(unavailableMessage(status, 'Paused Bakery'), 'male')]);
      expect(outcome.hungUpBy).toBe('app');
      const row = await vi.waitFor(async () => {
        const [r] = await rows(call.channelId);
        if (!r?.endedAt) throw new Error('not finished');
        return r;
      });
      expect(row).toMatchObject({ userId: biz.userId, mode: 'unavailable', status: 'missed', recordingFile: null, toNumber: biz.did });
      expect(row.duration).toBeGreaterThan(0);
      await vi.waitFor(() => expect(h.finished).toContain(row.id));
    },
  );

  it('an active business whose trial ran out minutes ago is treated as expired', async () => {
    const biz = await h.business({ businessName: 'Lapsed Trial', trialExpiresAt: new Date(Date.now() - 60_000) });
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did });
    const outcome = await call.done;
    expect(outcome.heard).toEqual([await h.prompt(unavailableMessage('expired', 'Lapsed Trial'), 'female')]);
    await vi.waitFor(async () => expect((await rows(call.channelId))[0]).toMatchObject({ mode: 'unavailable', status: 'missed' }));
  });

  it('an agent-mode business is answered (by voicemail until the agent flow exists)', async () => {
    const biz = await h.business({ businessName: 'Agent Co', aiMode: 'agent' });
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ press: '#' }] } });
    const outcome = await call.done;
    expect(outcome.heard).toContain('sound:beep');
    await vi.waitFor(async () => expect((await rows(call.channelId))[0]?.endedAt).toBeTruthy());
  });

  it('made only ARI calls the Swagger allows', () => {
    expect(h.protocolProblems()).toEqual([]);
  });
});
