import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LINES } from '../../dialogue/spoken/agent-lines.js';
import { CALLER, reply, startAgentHarness, type AgentHarness } from './harness.js';

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness();
});
afterAll(async () => {
  await h?.close();
});

const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.';
const say = (text: string) => ({ after: { agentQuietMs: 1000 }, say: text, onSpeak: () => (h.whisper.defaultTranscript = text) });

describe('agent call: a question the knowledge base does not cover', { timeout: 120_000 }, () => {
  it('admits it politely, offers to take a message, logs the question for the owner, and takes the message', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([
      // The model tries to guess a price; the agent must not say it.
      [/swimming pool/i, reply('question', false, 'It probably costs about £200.')],
      [/^Yes please/i, reply('message', true, 'Sure.')],
      [/goodbye/i, reply('goodbye', true, 'Goodbye.')],
    ]);
    const { channelId, outcome, session } = await h.call(biz.did, [
      say('How much do you charge to fix a swimming pool heater?'),
      say('Yes please.'),
      say('This is Sam Jones, please call me back about my pool.'),
      say('No, thank you, goodbye.'),
      { after: { ms: 20_000 }, hangUp: true },
    ]);
    expect(outcome.hungUpBy).toBe('app');
    const row = await h.finishedRow(channelId);
    expect(row.status).toBe('answered');
    expect(row.transcription).toBe(
      [
        row.transcription!.split('\n')[0],
        'Caller: How much do you charge to fix a swimming pool heater?',
        `Agent: ${AGENT_LINES.notAnswered}`,
        'Caller: Yes please.',
        `Agent: ${AGENT_LINES.takeMessage}`,
        'Caller: This is Sam Jones, please call me back about my pool.',
        `Agent: ${AGENT_LINES.messageTaken}`,
        'Caller: No, thank you, goodbye.',
        'Agent: Goodbye.',
      ].join('\n'),
    );
    expect(row.transcription).not.toContain('£200');
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.notAnswered))).toBe(true);

    const questions = await h.unanswered(biz.userId);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({
      callId: row.id,
      question: 'How much do you charge to fix a swimming pool heater?',
      callerNumber: CALLER,
      aiResponse: AGENT_LINES.notAnswered,
      resolved: false,
      addedToKnowledgeBase: false,
    });
  });

  it('a caller asking for a person is told no one can be put through and is offered a message', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([[/speak to (a person|someone)/i, reply('human', false, '')]]);
    const { channelId, session } = await h.call(biz.did, [
      say('Can I speak to someone please?'),
      say('Please ask Dave to ring me.'),
      { after: { agentQuietMs: 1000 }, hangUp: true },
    ]);
    const row = await h.finishedRow(channelId);
    expect(row.transcription).toContain(`Agent: ${AGENT_LINES.human}`);
    expect(row.transcription).toContain('Caller: Please ask Dave to ring me.');
    expect(row.transcription).toContain(`Agent: ${AGENT_LINES.messageTaken}`);
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.human))).toBe(true);
    // Asking for a person is not a knowledge-base gap.
    expect(await h.unanswered(biz.userId)).toEqual([]);
  });
});
