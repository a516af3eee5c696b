import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { reply, startAgentHarness, type AgentHarness } from './harness.js';

let h: AgentHarness;
beforeAll(async () => {
  // These calls are about silence and hang-ups, not stalls: on a loaded machine the answer can
  // take past the 1.2 s hold bound, and a caller hanging up on the holding phrase would never hear
  // the answer it hangs up on, so the stall bounds are out of reach here (test/pbx-real/agent-stall.test.ts and
  // pbx/flows/agent/conversation-stall.test.ts test them).
  h = await startAgentHarness({ timing: { silencePromptMs: 1500 }, env: { AGENT_HOLD_AFTER_MS: '60000', AGENT_VOICEMAIL_AFTER_MS: '600000' } });
});
afterAll(async () => {
  await h?.close();
});

const LONG = 'We cover Leeds, York and Harrogate. Our engineers carry parts for most boilers. A visit is usually arranged within two working days.';

describe('agent call: silence and hang-ups', { timeout: 120_000 }, () => {
  it('a silent caller gets a gentle prompt, then a polite goodbye, and the agent hangs up', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing' });
    const sttBefore = h.whisper.requests.length;
    const { channelId, outcome, session } = await h.call(biz.did, [{ after: { ms: 60_000 }, hangUp: true }]);
    expect(outcome.hungUpBy).toBe('app');
    const row = await h.finishedRow(channelId);
    // Nothing but the agent: greeting, the prompt, the goodbye.
    expect(row.transcription).toBe(`Agent: ${agentGreeting('Acme Plumbing')} ${AGENT_LINES.silencePrompt} ${AGENT_LINES.silenceGoodbye}`);
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.silencePrompt))).toBe(true);
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.silenceGoodbye))).toBe(true);
    // The line noise was never taken for speech.
    expect(h.whisper.requests.length).toBe(sttBefore);
    expect(row.status).toBe('answered');
  });

  it('a caller hanging up mid-answer ends the call cleanly: row, transcript, recording, no leftovers', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: `Q: Areas?\nA: ${LONG}` });
    h.replies([[/areas/i, reply('question', true, LONG)]]);
    const { channelId, outcome } = await h.call(biz.did, [
      { after: { agentQuietMs: 1000 }, say: 'What areas do you cover?', onSpeak: () => (h.whisper.defaultTranscript = 'What areas do you cover?') },
      { after: { agentAudioMs: 1200 }, hangUp: true },
    ]);
    expect(outcome.hungUpBy).toBe('caller');
    const row = await h.finishedRow(channelId);
    expect(row).toMatchObject({ status: 'answered', recordingFile: `call-${row.id}.wav` });
    expect(row.transcription).toMatch(/Caller: What areas do you cover\?\nAgent: We cover Leeds, York and Harrogate\. \[interrupted\]$/);
    await vi.waitFor(() => {
      expect(h.sim.liveChannelIds()).toEqual([]); // the externalMedia channel is hung up too
      expect(h.media.bridges()).toEqual([]);
    });
    expect(h.protocolProblems()).toEqual([]);
  });
});
