// Setting up the agent's media path when Asterisk is slow to put the externalMedia channel in
// its app. Asterisk answers POST /channels/externalMedia before the channel has entered the
// media app, and refuses to bridge it until its StasisStart (422 "Channel not in Stasis
// application"): seen on a loaded two-core box, where the caller got voicemail instead of the
// agent. The simulator delays that StasisStart on cue, which Asterisk cannot be made to do.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { waitUntil } from '../helpers/wait.js';
import { APP, CALLER, startAgentHarness, type AgentHarness } from './harness.js';

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness();
});
afterEach(() => {
  h.media.stasisStartDelayMs = 0;
});
afterAll(async () => {
  await h?.close();
});

describe('agent call: the media channel enters its app late', { timeout: 120_000 }, () => {
  it('waits for its StasisStart, then bridges it: the caller gets the agent, not voicemail', async () => {
    h.media.stasisStartDelayMs = 400;
    const biz = await h.business({ businessName: 'Acme Plumbing' });
    const { channelId, outcome } = await h.call(biz.did, [{ after: { agentQuietMs: 1000 }, hangUp: true }]);
    expect(outcome.heard).not.toContain('sound:beep');
    const row = await h.finishedRow(channelId);
    expect(row).toMatchObject({ mode: 'agent', status: 'answered' });
    expect(row.transcription).toBe(`Agent: ${agentGreeting('Acme Plumbing')}`);
  });

  it('one that never enters is hung up, and the caller is taken to voicemail instead of dead air', async () => {
    h.media.stasisStartDelayMs = 60_000;
    const biz = await h.business({ businessName: 'Acme Plumbing' });
    const placed = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ hangup: true }] } });
    const outcome = await placed.done;
    expect(outcome.heard).toContain('sound:beep');
    await h.finishedRow(placed.channelId);
    // The media channel left behind by the refused set-up is gone too.
    await waitUntil(() => expect(h.sim.liveChannelIds()).toEqual([]), 10_000);
    expect(h.media.bridges()).toEqual([]);
  });
});
