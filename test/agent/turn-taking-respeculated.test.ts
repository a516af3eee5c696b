import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { createPromptCache, createTextToSpeech } from '../../models/tts/index.js';
import type { OllamaRequest } from '../doubles/ollama/server.js';
import { pausedSpeech, reply, startAgentHarness, type AgentHarness } from './harness.js';

// Issue 61, the slow turn: a caller pauses mid-sentence, so the speculation on the first half
// is thrown away; the agent speculates again on the whole sentence at the next pause, and the
// caller hears its answer to the whole sentence, once, and nothing else: not the answer to half
// a sentence, and not the holding phrase in front of an answer whose first sentence was already
// with the voice (the answer then waited behind the whole phrase: the slow turn's 1.4 s).
//
// The engines are slow enough that the answer's first audio comes after the hold bound, and its
// first sentence reaches the voice well before it: the model takes MODEL_MS, the answer's
// synthesis VOICE_MS (less than the hold bound, so it is no stuck voice).

const HOLD_MS = 3000;
const MODEL_MS = 1500;
const VOICE_MS = 1800;
const FIRST = 'I would like to book a visit for';
const REST = 'next Tuesday morning, please.';
const WHOLE = `${FIRST} ${REST}`;
const ANSWER = 'Tuesday morning is fine, I will note that down for you.';
const HALF_ANSWER = 'Visits can be booked on any weekday.';

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness({
    env: { AGENT_HOLD_AFTER_MS: String(HOLD_MS), AGENT_VOICEMAIL_AFTER_MS: '30000' },
    speech: (server) => {
      const espeak = createTextToSpeech(server.config.tts);
      return createPromptCache({
        dataDir: server.dataDir,
        tts: {
          engine: espeak.engine,
          async synthesize(text, voice, out, signal) {
            if (text === ANSWER) await new Promise((r) => setTimeout(r, VOICE_MS));
            return espeak.synthesize(text, voice, out, signal);
          },
        },
      });
    },
  });
  h.ollama.always = { delayMs: MODEL_MS };
});
afterAll(async () => {
  await h?.close();
});

const agentRequests = (rs: OllamaRequest[]) => rs.filter((r) => r.path === '/api/chat' && !String((r.body.messages as Array<{ content: string }>)[0]?.content).startsWith('You summarise'));
const lastWords = (r: OllamaRequest) => String((r.body.messages as Array<{ content: string }>).at(-1)?.content ?? '');

describe('agent call: a speculation thrown away, then made again', { timeout: 120_000 }, () => {
  it('a caller who pauses mid-sentence, goes on, then stops hears the answer to the whole sentence once, with no holding phrase before it and nothing said to half of it', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: 'Q: Can I book a visit?\nA: Yes, any weekday.' });
    h.replies([
      [/Tuesday/i, reply('question', true, ANSWER)],
      [/visit for$/i, reply('question', true, HALF_ANSWER)],
    ]);
    const modelBefore = h.ollama.requests.length;
    const sttBefore = h.whisper.requests.length;
    const { channelId, session } = await h.call(biz.did, [...pausedSpeech(h.whisper, { agentQuietMs: 1000 }, FIRST, 500, REST), { after: { agentQuietMs: 800 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);

    // The first half was transcribed on its own (the speculation thrown away; whether its model
    // call started depends on how fast Whisper was), and the model was asked the whole sentence last.
    expect(h.whisper.requests.length - sttBefore).toBeGreaterThanOrEqual(2);
    expect(agentRequests(h.ollama.requests.slice(modelBefore)).map(lastWords).at(-1)).toBe(WHOLE);
    // What the caller heard: the answer to the whole sentence, and neither the holding phrase nor the answer to half of it.
    expect(session.heardAudio(await h.agentAudio(ANSWER))).toBe(true);
    expect(session.heardAudio(await h.agentAudio(AGENT_LINES.holding))).toBe(false);
    expect(session.heardAudio(await h.agentAudio(HALF_ANSWER))).toBe(false);
    expect(row.transcription).toBe([`Agent: ${agentGreeting('Acme Plumbing')}`, `Caller: ${WHOLE}`, `Agent: ${ANSWER}`].join('\n'));
    // One committed turn, and it took over the second speculation (not the old path's work after the turn ended).
    expect(h.metrics.filter((m) => m.callId === row.id)).toMatchObject([{ turn: 1, kind: 'answer', speculated: true }]);
  });
});
