// Agent mode when an engine stalls mid-call, on a real Asterisk: the Ollama double is made to
// hold its answers on cue. A caller who has finished speaking never waits in silence: they hear
// the holding phrase, then the answer if it comes, or else the voicemail offer and the tone,
// and leave a message that is stored and texted; the call keeps its transcript so far.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { envelopeMatch, readWavSamples, speech, toneMs } from './audio.js';
import { askAgent, hearsAgent } from './agent-caller.js';
import { realPbxAvailability, startRealPbx, textsSent, type RealPbx } from './harness.js';

const real = realPbxAvailability();

const HOURS = 'We are open from eight in the morning to six in the evening, Monday to Friday.';
const BOILERS = 'Yes, we repair and service all makes of gas boiler.';
const KB = `Q: What are your opening hours?\nA: ${HOURS}\n\nQ: Do you fix boilers?\nA: ${BOILERS}`;
const MESSAGE = 'This is Sam Jones, my boiler is leaking, please call me back this afternoon.';
const SUMMARY = 'Sam Jones called about a leaking boiler and asked for a call back this afternoon.';
/** Sentences nobody says in these calls, to tell what a recording holds from what any speech scores in it. */
const OTHER_SPEECH = ['Good morning, can I book a table for four on Friday?', 'Hi, it is Jo upstairs, the water is coming through.', 'Is the shop open on bank holidays?', 'Please send someone round to look at the gate.'];
const reply = (answer: string) => JSON.stringify({ intent: 'question', answered: true, answer });
/** The Ollama double holds every answer this long while stalled: longer than any test waits. */
const STUCK = { delayMs: 600_000 };
/** The call's transcript, line by line; on a loaded machine the test caller may speak over a line's tail, which marks it "[interrupted]". */
/** Quiet after a line before the caller speaks: under load a line arrives with gaps, and a caller who speaks into one barges in. */
const QUIET_MS = 1500;
const lines = (transcription: string | null) => transcription!.split('\n').map((l) => l.replace(/ \[interrupted\]$/, ''));

describe.skipIf(!real.ok)('agent mode when an engine stalls mid-call, on a real Asterisk', { timeout: 240_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    // The offer later than its 8 s default: a loaded test machine must not turn the brief stall into a long one.
    h = await startRealPbx({ agent: true, pipeline: true, env: { AGENT_VOICEMAIL_AFTER_MS: '15000' } });
    h.ollama.replier = (req) => {
      if (req.body.stream === false) return SUMMARY; // the post-call summary
      const last = String((req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '');
      return reply(/boilers/i.test(last) ? BOILERS : HOURS);
    };
  });
  afterAll(async () => {
    await h?.close();
  });

  it('Ollama stuck: the holding phrase, then the voicemail offer and the tone; the message is stored and texted, the partial transcript kept', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB, notificationNumber: '+447700900123' });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
    const q1 = await askAgent(h, call, 'What are your opening hours?');
    await hearsAgent(h, call, q1.endedAt, HOURS, QUIET_MS);

    h.ollama.always = STUCK;
    const q2 = await askAgent(h, call, 'Do you fix boilers?');
    const held = await hearsAgent(h, call, q2.endedAt, AGENT_LINES.holding);
    const offered = await hearsAgent(h, call, held, AGENT_LINES.engineFailure, QUIET_MS);
    // Played straight after the offer: the tone, as before any voicemail.
    expect(toneMs(call.media.heard(held), 1000)).toBeGreaterThanOrEqual(200);
    h.ollama.always = null; // the engine recovers: the summary can be made

    const msg = await askAgent(h, call, MESSAGE);
    expect(msg.endedAt).toBeGreaterThan(offered);
    await hearsAgent(h, call, msg.endedAt, AGENT_LINES.voicemailThanks, 20);
    expect((await call.done).exitCode).toBe(0); // the agent thanked the caller and hung up

    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ status: 'answered', mode: 'agent', agentStalled: true, agentBusy: false, recordingFile: `call-${row.id}.wav` });
    expect(lines(row.transcription)).toEqual([
      `Agent: ${agentGreeting('Hale Plumbing')}`,
      'Caller: What are your opening hours?',
      `Agent: ${HOURS}`,
      'Caller: Do you fix boilers?',
      `Agent: ${AGENT_LINES.engineFailure}`,
      `Caller: ${MESSAGE}`,
      `Agent: ${AGENT_LINES.voicemailThanks}`,
    ]);
    // One recording: the conversation and, after the tone, the message. Each is found in it
    // clearly better than other speech is (0.998 against 0.66–0.69 on a quiet machine; under
    // load Asterisk's mix of a call can blur the caller's words: 0.78 seen at load 10).
    const mix = readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
    const otherSpeech = Math.max(...OTHER_SPEECH.map((t) => envelopeMatch(speech(t), mix).score));
    for (const words of [q1.words, msg.words]) expect(envelopeMatch(words, mix).score).toBeGreaterThan(otherSpeech + 0.05);

    const texted = await textsSent(h, row.id);
    expect(texted[0]).toMatchObject({ to: '+447700900123', kind: 'summary' });
    expect(texted[0]!.body).toContain('leaking boiler');
  });

  it('Ollama slow for a moment: the holding phrase, then the real answer, and the conversation goes on', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);

    // Answers held well past the holding phrase's bound and well short of the voicemail offer's.
    h.ollama.always = { delayMs: 3000 };
    const q1 = await askAgent(h, call, 'Do you fix boilers?');
    const held = await hearsAgent(h, call, q1.endedAt, AGENT_LINES.holding, 20);
    h.ollama.always = null;
    await hearsAgent(h, call, held, BOILERS, QUIET_MS);

    const q2 = await askAgent(h, call, 'What are your opening hours?');
    await hearsAgent(h, call, q2.endedAt, HOURS);
    await call.hangUp();

    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ status: 'answered', agentStalled: false });
    expect(lines(row.transcription).slice(1)).toEqual([
      'Caller: Do you fix boilers?',
      `Agent: ${BOILERS}`,
      'Caller: What are your opening hours?',
      `Agent: ${HOURS}`,
    ]);
    expect(envelopeMatch(readWavSamples(await h.promptFile(AGENT_LINES.engineFailure)), call.media.heard(q1.endedAt)).score).toBeLessThan(0.8);
  });
});
