import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LINES } from '../../dialogue/spoken/agent-lines.js';
import { reply, startAgentHarness, type AgentHarness } from './harness.js';

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness();
});
afterAll(async () => {
  await h?.close();
});

const ANSWER = 'We are open 8am to 6pm, Monday to Friday.';
const MESSAGE = 'This is Sam Jones, please call me back about a leaking boiler.';

describe('agent call: the language model fails mid-call', { timeout: 120_000 }, () => {
  it('the caller is offered voicemail instead, and the message is kept', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: `Q: Hours?\nA: ${ANSWER}` });
    h.replies([[/open/i, reply('question', true, ANSWER)]]);
    const { channelId, outcome, session } = await h.call(biz.did, [
      { after: { agentQuietMs: 1000 }, say: 'What time do you open?', onSpeak: () => (h.whisper.defaultTranscript = 'What time do you open?') },
      {
        after: { agentQuietMs: 1000 },
        say: 'And do you fix boilers?',
        onSpeak: () => {
          h.whisper.defaultTranscript = 'And do you fix boilers?';
          h.ollama.always = { status: 500, error: 'llama runner process has terminated' };
        },
      },
      { after: { agentQuietMs: 1000 }, say: MESSAGE, onSpeak: () => (h.whisper.defaultTranscript = MESSAGE) },
      { after: { ms: 30_000 }, hangUp: true },
    ]);
    h.ollama.always = null;
    expect(outcome.hungUpBy).toBe('app');
    const row = await h.finishedRow(channelId);
    expect(row.transcription!.split('\n').slice(1)).toEqual([
      'Caller: What time do you open?',
      `Agent: ${ANSWER}`,
      'Caller: And do you fix boilers?',
      `Agent: ${AGENT_LINES.engineFailure}`,
      `Caller: ${MESSAGE}`,
      `Agent: ${AGENT_LINES.voicemailThanks}`,
    ]);
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.engineFailure))).toBe(true);
    expect(row).toMatchObject({ status: 'answered', recordingFile: `call-${row.id}.wav` });
    // An engine failure is not a knowledge-base gap.
    expect(await h.unanswered(biz.userId)).toEqual([]);
  });
});
