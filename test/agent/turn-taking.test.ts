import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { DEFAULT_END_OF_TURN } from '../../pbx/flows/agent/end-of-turn.js';
import type { OllamaRequest } from '../doubles/ollama/server.js';
import { pausedSpeech, reply, startAgentHarness, type AgentHarness } from './harness.js';

// Speculative turn-taking on a simulated call (real espeak-ng caller audio over RTP, real
// VAD): work starts on a short pause, the turn commits on an end-of-turn silence picked
// from the words, and nothing of a cancelled speculation reaches the caller or the owner.

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness();
});
afterAll(async () => {
  await h?.close();
});

const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.\n\nQ: Can I book a visit?\nA: Yes, any weekday.';
const HOURS = 'We are open 8am to 6pm, Monday to Friday.';
const BOOKED = 'Tuesday morning is fine, I will note that down for you.';
const TOO_EARLY = 'Visits can be booked on any weekday.';
const lastWords = (r: OllamaRequest) => String((r.body.messages as Array<{ content: string }>).at(-1)?.content ?? '');
const caller = (text: string) => ({ after: { agentQuietMs: 1000 }, say: text, onSpeak: () => (h.whisper.defaultTranscript = text) });
const callerLines = (transcription: string | null) => (transcription ?? '').split('\n').filter((l) => l.startsWith('Caller: '));

describe('agent call: speculative turn-taking', { timeout: 120_000 }, () => {
  it('a caller who stops after a complete question gets the answer started before the turn ended, on a shortened end-of-turn silence', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([[/open/i, reply('question', true, HOURS)]]);
    const modelBefore = h.ollama.requests.length;
    const { channelId, session } = await h.call(biz.did, [caller('What time do you open on Monday?'), { after: { agentQuietMs: 800 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);

    expect(session.heardAudio(await h.agentAudio(HOURS))).toBe(true);
    expect(row.transcription).toBe([`Agent: ${agentGreeting('Acme Plumbing')}`, 'Caller: What time do you open on Monday?', `Agent: ${HOURS}`].join('\n'));
    const turn = h.metrics.find((m) => m.callId === row.id && m.turn === 1)!;
    expect(turn).toMatchObject({ kind: 'answer', speculated: true, speculativeLlmCalls: 1, endSilenceMs: DEFAULT_END_OF_TURN.completeMs });
    // The work started at the speculation point, well inside the end-of-turn silence.
    expect(turn.vadWaitMs).toBeLessThan(turn.commitSilenceMs);
    expect(h.ollama.requests.slice(modelBefore).filter((r) => lastWords(r).includes('open on Monday'))).toHaveLength(1);
  });

  it('a caller who pauses 500 ms mid-sentence is not interrupted: the reply to half a sentence is never heard nor logged, and the whole sentence gets one answer', async () => {
    const first = 'I would like to book a visit for';
    const rest = 'next Tuesday morning, please.';
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([
      [/Tuesday/i, reply('question', true, BOOKED)],
      // Half a sentence would be an unanswered question, said aloud and logged, if it ever counted.
      [/visit for$/i, reply('question', false, '')],
    ]);
    const modelBefore = h.ollama.requests.length;
    const { channelId, session } = await h.call(biz.did, [...pausedSpeech(h.whisper, { agentQuietMs: 1000 }, first, 500, rest), { after: { agentQuietMs: 800 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);

    // The caller really paused that long between the two halves.
    expect(session.turns[1]!.speechStartAt - session.turns[0]!.endAt).toBeGreaterThanOrEqual(480);
    // The speculation on the first half did run (the model was asked)...
    expect(h.ollama.requests.slice(modelBefore).some((r) => lastWords(r) === first)).toBe(true);
    // ...and was thrown away: nothing of it heard, logged or counted.
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.notAnswered))).toBe(false);
    expect(await h.unanswered(biz.userId)).toEqual([]);
    expect(callerLines(row.transcription)).toEqual([`Caller: ${first} ${rest}`]);
    expect(row.transcription).toContain(`Caller: ${first} ${rest}\nAgent: ${BOOKED}`);
    expect(session.heardAudio(await h.agentAudio(BOOKED))).toBe(true);
    const turns = h.metrics.filter((m) => m.callId === row.id);
    expect(turns.map((m) => m.turn)).toEqual([1]);
    // The cancelled speculation is counted (the whole sentence's answer may or may not be a
    // speculation too: that depends on timing, which a loaded machine changes).
    expect(turns[0]!.speculativeLlmCalls).toBeGreaterThanOrEqual(1);
  });

  it('a caller who goes on after a short pause following a finished sentence gets one answer to all of it, and nothing before', async () => {
    const first = 'My boiler is leaking.';
    const rest = 'Can someone come out today?';
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([
      [/today/i, reply('question', true, BOOKED)],
      [/leaking\.$/i, reply('question', true, TOO_EARLY)],
    ]);
    const sttBefore = h.whisper.requests.length;
    // 350 ms: past the speculation point, short of the 500 ms a finished sentence commits on.
    const { channelId, session } = await h.call(biz.did, [...pausedSpeech(h.whisper, { agentQuietMs: 1000 }, first, 350, rest), { after: { agentQuietMs: 800 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);

    expect(h.whisper.requests.length - sttBefore).toBeGreaterThanOrEqual(2); // the first half was transcribed on its own
    expect(session.heardAudio(await h.agentAudio(TOO_EARLY))).toBe(false);
    expect(callerLines(row.transcription)).toEqual([`Caller: ${first} ${rest}`]);
    expect(row.transcription).toContain(`Caller: ${first} ${rest}\nAgent: ${BOOKED}`);
    expect(h.metrics.filter((m) => m.callId === row.id).map((m) => m.turn)).toEqual([1]);
  });

  it('"um" holds the turn past the usual end-of-turn silence, and an answer made early is never heard', async () => {
    const first = 'I need someone to look at my boiler, um';
    const rest = 'it is making a banging noise.';
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([
      [/banging/i, reply('question', true, BOOKED)],
      [/um$/i, reply('question', true, TOO_EARLY)],
    ]);
    // A pause longer than the usual 700 ms: only the hold after "um" keeps the floor for the caller.
    const { channelId, session } = await h.call(biz.did, [...pausedSpeech(h.whisper, { agentQuietMs: 1000 }, first, 1000, rest), { after: { agentQuietMs: 800 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);

    expect(session.turns[1]!.speechStartAt - session.turns[0]!.endAt).toBeGreaterThan(DEFAULT_END_OF_TURN.defaultMs);
    expect(session.heardAudio(await h.agentAudio(TOO_EARLY))).toBe(false);
    expect(callerLines(row.transcription)).toEqual([`Caller: ${first} ${rest}`]);
    expect(session.heardAudio(await h.agentAudio(BOOKED))).toBe(true);
  });

  it('a phone number read out in groups holds the turn until the last group', async () => {
    const first = 'My number is 07700 900';
    const rest = '123.';
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([
      [/123/, reply('question', true, BOOKED)],
      [/900$/, reply('question', true, TOO_EARLY)],
    ]);
    const { channelId, session } = await h.call(biz.did, [...pausedSpeech(h.whisper, { agentQuietMs: 1000 }, first, 1000, rest), { after: { agentQuietMs: 800 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);

    expect(session.turns[1]!.speechStartAt - session.turns[0]!.endAt).toBeGreaterThan(DEFAULT_END_OF_TURN.defaultMs);
    expect(session.heardAudio(await h.agentAudio(TOO_EARLY))).toBe(false);
    expect(callerLines(row.transcription)).toEqual([`Caller: ${first} ${rest}`]);
    expect(session.heardAudio(await h.agentAudio(BOOKED))).toBe(true);
    // Even the last group is held for: nothing tells it was the last.
    expect(h.metrics.find((m) => m.callId === row.id)).toMatchObject({ turn: 1, endSilenceMs: DEFAULT_END_OF_TURN.holdMs });
  });
});
