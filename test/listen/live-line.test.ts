// Listen in (issue 54) on the real Asterisk 20.17.0 with the project's configuration: a caller
// from SIPp in progress, the owner's listen line through the core's proxy, another business's
// owner refused as for a missing call. The browser's audio: listen-browser.test.ts and
// take-over-browser.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { waitUntil } from '../helpers/wait.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { ownerWithLine } from '../call-my-line/owner-line.js';
import { connect, SipSocket, type Credentials } from '../call-my-line/sip-ws-client.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('listening in to a live call on the real PBX', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('gives the owner a line that Asterisk bridges to the call, records the listen, and answers another owner 404', async () => {
    const owner = await ownerWithLine(h.server, '+447700900821');
    const other = await ownerWithLine(h.server, '+447700900822');
    const caller = await h.call(owner.did);
    const row = await waitUntil(async () => {
      const r = (await h.rows(owner.did))[0];
      if (!r?.channelId || r.endedAt) throw new Error('no call in progress yet');
      return r;
    }, 30_000);

    const refused = await other.client.post(`/api/live/calls/${row.id}/listen`);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: 'Call not found.' });
    const notAgent = await owner.client.post(`/api/live/calls/${row.id}/take-over`, { via: 'browser' });
    expect(notAgent.status).toBe(409);
    expect(notAgent.body).toMatchObject({ message: 'Only a call the assistant is answering can be taken over.' });

    const res = await owner.client.post<Credentials & { callId: number }>(`/api/live/calls/${row.id}/listen`);
    expect(res.status).toBe(200);
    expect(res.body.wsPath).toMatch(/^\/api\/live\/ws\/lt-[0-9a-f]+$/);
    expect(res.body.callId).toBe(row.id);
    const sip = await connect(h.server.url, res.body.wsPath, { origin: h.server.url, cookie: owner.client.cookie });
    if (!(sip instanceof SipSocket)) throw new Error(`upgrade refused with ${sip.refused}`);
    const leg = await sip.invite(res.body, res.body.sipUri);
    expect(leg.status).toBe(200);
    const { callLiveEvents } = tablesOf(h.server.database.db);
    const events = await waitUntil(async () => {
      const e = await h.server.database.db.select().from(callLiveEvents).where(eq(callLiveEvents.callId, row.id));
      if (!e.length) throw new Error('no listen recorded yet');
      return e;
    }, 20_000);
    expect(events).toEqual([expect.objectContaining({ event: 'listen', byName: 'the owner', userId: owner.user.id })]);

    leg.hangUp();
    await caller.hangUp();
    await h.finishedRow(owner.did);
    sip.close();
  });
});
