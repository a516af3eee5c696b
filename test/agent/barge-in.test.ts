import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startAgentHarness, type AgentHarness } from './harness.js';

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness();
});
afterAll(async () => {
  await h?.close();
});

const AREAS = [
  'We cover Leeds, York and Harrogate.',
  'Our engineers carry parts for most boilers.',
  'A visit is usually arranged within two working days.',
  'We also offer annual servicing plans for landlords.',
];
const WEEKENDS = 'Yes, we work on Saturdays from 9am to 1pm.';
const KB = `Q: What areas do you cover?\nA: ${AREAS.join(' ')}\n\nQ: Do you work weekends?\nA: Saturdays 9am to 1pm.`;
const say = (text: string, after: { agentQuietMs: number } | { agentAudioMs: number } = { agentQuietMs: 1000 }) => ({
  after,
  say: text,
  onSpeak: () => (h.whisper.defaultTranscript = text),
});

describe('agent call: the caller interrupts', { timeout: 120_000 }, () => {
  it('barge-in cuts the answer, drops the queued sentences and answers the new question', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([
      [/areas/i, reply('question', true, AREAS.join(' '))],
      [/weekends/i, reply('question', true, WEEKENDS)],
    ]);
    const { channelId, session } = await h.call(biz.did, [
      say('What areas do you cover?'),
      // Talks over the first sentences of the answer.
      say('Sorry, do you work weekends?', { agentAudioMs: 1500 }),
      { after: { agentQuietMs: 800 }, hangUp: true },
    ]);
    const row = await h.finishedRow(channelId);

    expect(session.turns[1]!.overAgent).toBe(true);
    // The rest of the first answer never reached the caller; the second answer did, whole.
    expect(session.heardAudio(await h.agentAudio(AREAS[3]!))).toBe(false);
    expect(session.heardAudio(await h.agentAudio(WEEKENDS))).toBe(true);
    expect(row.transcription).toMatch(/Agent: We cover Leeds.*\[interrupted\]/);
    expect(row.transcription).not.toContain(AREAS[3]);
    expect(row.transcription).toContain(`Caller: Sorry, do you work weekends?\nAgent: ${WEEKENDS}`);
    const stopMs = session.bargeInStopMs(1);
    expect(stopMs).toBeDefined();
    console.log(`barge-in: agent audio stopped ${stopMs!.toFixed(0)} ms after the caller started talking`);
  });

  it('a short back-channel ("Mm.") does not derail the answer', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    h.replies([[/areas/i, reply('question', true, AREAS.join(' '))]]);
    const sttBefore = h.whisper.requests.length;
    const { channelId, session } = await h.call(biz.did, [
      say('What areas do you cover?'),
      { after: { agentAudioMs: 1500 }, say: 'Mm.' },
      // Hangs up once the agent has been quiet a while: on a loaded machine the gap between two
      // synthesised sentences passed a 1 s wait, and the caller left before the last one.
      { after: { agentQuietMs: 4000 }, hangUp: true },
    ]);
    const row = await h.finishedRow(channelId);
    for (const sentence of AREAS) expect(session.heardAudio(await h.agentAudio(sentence))).toBe(true);
    expect(row.transcription).not.toContain('[interrupted]');
    expect(h.whisper.requests.length - sttBefore).toBe(1); // only the question was transcribed
  });
});
