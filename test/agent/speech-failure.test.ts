import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PromptCache } from '../../models/tts/index.js';
import { startAgentHarness, type AgentHarness } from './harness.js';

let h: AgentHarness;
// The agent's voice engine is broken (the PBX's own prompts still work, as with a bad voice file).
const brokenSpeech: PromptCache = { get: async () => Promise.reject(new Error('piper: voice model missing')) };
beforeAll(async () => {
  h = await startAgentHarness({ speech: brokenSpeech });
});
afterAll(async () => {
  await h?.close();
});

describe('agent call: the agent cannot speak', { timeout: 120_000 }, () => {
  it('hands the caller to voicemail instead of dead air, and tears the media down', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing' });
    const { channelId, outcome } = await h.call(biz.did, [{ after: { ms: 60_000 }, hangUp: true }]);
    expect(outcome.heard).toContain('sound:beep'); // the voicemail flow's beep before recording
    const row = await h.finishedRow(channelId);
    expect(row.mode).toBe('agent');
    await vi.waitFor(() => {
      expect(h.sim.liveChannelIds()).toEqual([]);
      expect(h.media.bridges()).toEqual([]);
    });
  });
});
