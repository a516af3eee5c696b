import { describe, expect, it, vi } from 'vitest';
import { AGENT_LINES, agentGreeting } from '../../../dialogue/spoken/agent-lines.js';
import { caller, greeted, heard, levels, llm, player, reply, sent, silence, speech, stalled, start, stt } from './scripted-conversation.js';

// Engines that stall mid-call, frame by frame with scripted engines (scripted-conversation.ts):
// the holding phrase, the voicemail offer, and a slow answer that still comes.

describe('AgentConversation: engines that stall mid-call', () => {
  const stall = { holdMs: 900, voicemailMs: 2500 };
  /** When `text` first reached the wire (index of its first frame), or -1. */
  const firstSent = (text: string) => sent.findIndex((f) => f[0] === levels.get(text));
  const toneAt = () => sent.findIndex((f) => Math.max(...f) > 16000);
  const holding = () => AGENT_LINES.holding;
  /** A call whose first question the model is slow to answer: returned once the holding phrase was sent. */
  async function heldAfter(question: string) {
    const call = start({ stall });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve(question);
    await caller(silence(300));
    await vi.waitFor(() => expect(firstSent(holding())).toBeGreaterThan(-1));
    return call;
  }
  /** The caller's second question, answered at once and heard in full; then they hang up. */
  async function secondAnswered(call: ReturnType<typeof start>, question: string, answer: string) {
    stt[1]!.resolve(question);
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    llm[1]!.resolve(reply(true, answer));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard(answer) && !player.busy).toBe(true));
    call.hangup.abort();
    return call.done;
  }

  it('a model that never answers: the holding phrase, then the voicemail offer and the tone; the message ends the call and the partial transcript is kept', async () => {
    const { done } = start({ stall });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('Do you fix boilers?');
    await caller(silence(300)); // committed; the model is asked and never answers
    await vi.waitFor(() => expect(firstSent(holding())).toBeGreaterThan(-1));
    expect(firstSent(AGENT_LINES.engineFailure)).toBe(-1);
    await vi.waitFor(() => expect(toneAt()).toBeGreaterThan(-1), { timeout: 5000 });
    expect(firstSent(AGENT_LINES.engineFailure)).toBeGreaterThan(firstSent(holding()));
    expect(toneAt()).toBeGreaterThan(firstSent(AGENT_LINES.engineFailure));
    expect(llm.every((r) => r.signal.aborted)).toBe(true); // the stuck request gives its slot back
    expect(stalled).toBe(1);
    await vi.waitFor(() => expect(player.busy).toBe(false));

    await caller(speech(1000) + silence(2000)); // the message
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve('This is Sam, please call me back.');
    const result = await done;
    expect(result.endedBy).toBe('agent');
    expect(result.transcript.map((l) => `${l.speaker}: ${l.text}`)).toEqual([
      `Agent: ${agentGreeting('Acme Plumbing')}`,
      'Caller: Do you fix boilers?',
      `Agent: ${AGENT_LINES.engineFailure}`,
      'Caller: This is Sam, please call me back.',
      `Agent: ${AGENT_LINES.voicemailThanks}`,
    ]);
  });

  it('a model that is only slow: the holding phrase, then its answer, and the conversation goes on', async () => {
    const { done, hangup } = await heldAfter('Do you fix boilers?');
    llm[0]!.resolve(reply(true, 'Yes, we fix boilers.'));
    await vi.waitFor(() => expect(heard('Yes, we fix boilers.') && !player.busy).toBe(true));
    expect(firstSent('Yes, we fix boilers.')).toBeGreaterThan(firstSent(holding()));

    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    const result = await secondAnswered({ done, hangup }, 'What time do you open?', 'We open at 8am.');
    expect(stalled).toBe(0);
    expect(heard(AGENT_LINES.engineFailure)).toBe(false);
    expect(result.transcript.map((l) => l.text)).toEqual([agentGreeting('Acme Plumbing'), 'Do you fix boilers?', 'Yes, we fix boilers.', 'What time do you open?', 'We open at 8am.']);
  });

  it('the caller speaks again after the holding phrase: the slow turn is dropped and the new one answered', async () => {
    const { done, hangup } = await heldAfter('What areas do you cover?');
    await vi.waitFor(() => expect(player.busy).toBe(false));
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    expect(llm[0]!.signal.aborted).toBe(true);
    const result = await secondAnswered({ done, hangup }, 'Sorry, what are your opening hours?', 'We open at 8am.');
    expect(stalled).toBe(0);
    expect(result.transcript.map((l) => l.text)).toEqual([agentGreeting('Acme Plumbing'), 'What areas do you cover?', 'Sorry, what are your opening hours?', 'We open at 8am.']);
  });

  it('the caller barges in on an answer that followed the holding phrase: it stops, and their new turn is answered', async () => {
    const { done, hangup } = await heldAfter('What areas do you cover?');
    llm[0]!.resolve(reply(true, 'We cover Leeds. We cover York. We cover Harrogate. We cover Wakefield.'));
    await vi.waitFor(() => expect(heard('We cover Leeds.')).toBe(true));
    await caller(speech(600)); // over the answer
    expect(player.busy).toBe(false);
    await caller(silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    await secondAnswered({ done, hangup }, 'Sorry, what are your opening hours?', 'We open at 8am.');
    expect(heard('We cover Wakefield.')).toBe(false);
  });
});

