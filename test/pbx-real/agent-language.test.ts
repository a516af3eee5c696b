// Issue 42 on a real Asterisk: SIPp callers speaking Polish and Welsh through espeak-ng, the
// whisper double naming each turn's language and probability as whisper.cpp v1.7.6's server
// does (verbose_json). Each answer must reach the caller in the voice of its language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { readWavSamples } from './audio.js';
import { hearsAgent, hearsAudio } from './agent-caller.js';
import type { SipCall } from './sipp.js';
import { ANSWERS_ONLY, realPbxAvailability, startRealPbx, textsSent, type RealPbx } from './harness.js';
import { waitUntil } from '../helpers/wait.js';

const real = realPbxAvailability();
const reply = (intent: string, answered: boolean, answer: string) => JSON.stringify({ intent, answered, answer });

const KB = 'Q: What are your opening hours?\nA: We are open from eight to six, Monday to Friday.';
const ENGLISH_HOURS = 'We are open from eight to six, Monday to Friday.';
// Short enough to be spoken as one sentence (a first sentence over 60 characters is split at a comma).
const POLISH_HOURS = 'Jesteśmy otwarci od ósmej do osiemnastej.';
const WELSH_HOURS = "Rydyn ni ar agor o wyth tan chwech.";
const URDU_HOURS = 'ہم صبح آٹھ سے شام چھ بجے تک کھلے ہیں۔';
// English names and a UK number inside Polish speech (issue 42: they must survive as said).
const POLISH_MESSAGE = 'Nazywam się John Smith, proszę oddzwonić na 07700 900456.';
const SUMMARY = 'The caller spoke Polish. John Smith asked for a call back on 07700 900456.';
const TRANSLATION = 'My name is John Smith, please call me back on 07700 900456.';

describe.skipIf(!real.ok)('the agent answers a caller in their own language, on a real Asterisk (issue 42)', { timeout: 240_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, pipeline: true, env: ANSWERS_ONLY });
    // The model: answers in the language its prompt names; after the call, summarises and translates.
    h.ollama.replier = (req) => {
      const msgs = req.body.messages as Array<{ role: string; content: string }>;
      const system = msgs[0]?.content ?? '';
      if (system.startsWith('Translate this phone call')) return `Agent: ${agentGreeting('Hale Plumbing')}\nCaller: ${TRANSLATION}`;
      if (req.body.stream === false) return SUMMARY; // the post-call summary
      if (system.includes('The caller speaks Urdu')) return reply('question', true, URDU_HOURS);
      if (system.includes('The caller speaks Polish')) return reply('question', true, POLISH_HOURS);
      if (system.includes('The caller speaks Welsh')) return reply('question', true, WELSH_HOURS);
      if (/^Hal+o/i.test(msgs.at(-1)?.content ?? '')) return reply('question', true, 'Hello, how can I help?');
      return reply('question', true, ENGLISH_HOURS);
    };
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The caller says `text` in espeak-ng's `voice`; whisper hears it as `language` with `probability`. */
  async function say(call: SipCall, text: string, voice: string, language: string, probability: number): Promise<number> {
    h.whisper.defaultTranscript = text;
    h.whisper.languageOf = () => ({ language, probability });
    await call.media.say(readWavSamples(callerSpeech(text, voice)));
    return call.media.sentAt;
  }

  it('a Polish caller: "Halo?" alone stays English, their question is answered in Polish in the Polish voice, and the call records it', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));

    const hello = await say(call, 'Halo?', 'pl', 'pl', 0.9);
    await hearsAgent(h, call, hello, 'Hello, how can I help?');

    const q = await say(call, 'Dzień dobry, w jakich godzinach jesteście otwarci?', 'pl', 'pl', 0.93);
    await hearsAgent(h, call, q, POLISH_HOURS, 600, 'pl');
    await call.hangUp();
    await call.done;

    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ callerLanguage: 'pl', callerVoice: 'espeak-ng:pl+f3' });
    expect(row.transcription).toContain(`Caller: Halo?\nAgent: Hello, how can I help?`);
    expect(row.transcription).toContain(`Agent: ${POLISH_HOURS}`);
  });

  it("an owner who chose espeak-ng's male Polish voice: the Polish caller hears the answer in it, and the call records it", async () => {
    // The owner's Voice is female (the default); male is chosen for Polish alone.
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB, languageVoices: { pl: 'espeak-ng:pl' } });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));
    const q = await say(call, 'Dzień dobry, w jakich godzinach jesteście otwarci?', 'pl', 'pl', 0.93);
    await hearsAgent(h, call, q, POLISH_HOURS, 600, 'pl', 'male');
    await call.hangUp();
    await call.done;
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ callerLanguage: 'pl', callerVoice: 'espeak-ng:pl' });
  });

  it('a Welsh caller asks "Cymraeg?", is answered in Welsh, then asks for English back and gets English', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));

    const asked = await say(call, 'Cymraeg?', 'cy', 'cy', 0.6);
    await hearsAgent(h, call, asked, fixedLines('cy').switched, 600, 'cy');

    const q = await say(call, 'Pryd ydych chi ar agor, os gwelwch yn dda?', 'cy', 'cy', 0.88);
    await hearsAgent(h, call, q, WELSH_HOURS, 600, 'cy');

    const back = await say(call, 'English please.', 'en-gb', 'en', 0.95);
    await hearsAgent(h, call, back, fixedLines('en').switched);

    const q2 = await say(call, 'What are your opening hours?', 'en-gb', 'en', 0.97);
    await hearsAgent(h, call, q2, ENGLISH_HOURS);
    await call.hangUp();
    await call.done;

    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ callerLanguage: 'en', callerVoice: 'espeak-ng:en-gb+f3' });
    expect(row.transcription).toContain(`Caller: Pryd ydych chi ar agor, os gwelwch yn dda?\nAgent: ${WELSH_HOURS}`);
  });

  it('an owner in Wales greets in Welsh, then English: the caller hears both greetings in that order, each in its voice', async () => {
    const { did } = await h.business({ businessName: 'Siop Dai', aiMode: 'agent', knowledgeBase: KB, greetingLanguages: 'cy,en' });
    const call = await h.call(did);
    const welsh = fixedLines('cy').greeting('Siop Dai');
    // What the caller heard matches the Welsh greeting in the Welsh voice followed by the English
    // one in the English voice (the match is in order: English first would not fit).
    const [cy, en] = await Promise.all([h.promptFile(welsh, 'female', 'cy'), h.promptFile(agentGreeting('Siop Dai'), 'female')]);
    const [a, b] = [readWavSamples(cy), readWavSamples(en)];
    const both = new Int16Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    await hearsAudio(h, call.media, 0, [both], 'the Welsh greeting, then the English one');
    await hearsAgent(h, call, 0, agentGreeting('Siop Dai'), 1500); // and the agent has finished speaking (quiet long enough for a loaded machine's gaps)
    const q = await say(call, 'What are your opening hours, please?', 'en-gb', 'en', 0.97);
    await hearsAgent(h, call, q, ENGLISH_HOURS);
    await call.hangUp();
    await call.done;
    const row = await h.finishedRow(did);
    // A caller speaking over a line's tail on a loaded machine marks it "[interrupted]": the order is what counts.
    expect(row.transcription!.split('\n').slice(0, 2).map((l) => l.replace(/ \[interrupted\]$/, ''))).toEqual([`Agent: ${welsh} ${agentGreeting('Siop Dai')}`, 'Caller: What are your opening hours, please?']);
  });

  it('an Urdu caller is answered in Urdu, in espeak-ng’s Urdu voice (Piper has none)', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));
    const q = await say(call, 'السلام علیکم، آپ کس وقت کھلے ہوتے ہیں؟', 'ur', 'ur', 0.91);
    await hearsAgent(h, call, q, URDU_HOURS, 600, 'ur');
    await call.hangUp();
    await call.done;
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ callerLanguage: 'ur', callerVoice: 'espeak-ng:ur+f3' });
    expect(row.transcription).toContain(`Agent: ${URDU_HOURS}`);
  });

  it('English names and a UK number inside a Polish sentence survive into the transcript, the summary, the translation and the owner’s text', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB, notificationNumber: '+447700900123' });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));
    const said = await say(call, POLISH_MESSAGE, 'pl', 'pl', 0.92);
    await hearsAgent(h, call, said, POLISH_HOURS, 600, 'pl');
    await call.hangUp();
    await call.done;
    const { id } = await h.finishedRow(did);
    const row = await waitUntil(async () => {
      const r = (await h.rows(did)).find((c) => c.id === id)!;
      if (!r.aiSummary || !r.transcriptEnglish || !r.notificationSent) throw new Error('the post-call job has not finished');
      return r;
    }, 60_000, 100);
    expect(row.transcription).toContain(`Caller: ${POLISH_MESSAGE}`);
    // The number check passed (a number the caller did not say is refused): the summary is stored as written.
    expect(row).toMatchObject({ callerLanguage: 'pl', aiSummary: SUMMARY, summaryStatus: 'done', transcriptEnglish: expect.stringContaining(TRANSLATION) });
    const asked = h.ollama.requests.filter((r) => r.body.stream === false && JSON.stringify(r.body.messages).includes(POLISH_MESSAGE));
    expect(asked.map((r) => String(r.body.messages[0].content).startsWith('Translate this phone call'))).toEqual([false, true]);
    expect(asked[1]!.body.messages[0].content).toContain('Keep names, numbers and UK phone numbers as they are.');
    const texted = await textsSent(h, id);
    expect(texted[0]!.body).toContain('John Smith asked for a call back on 07700 900456');
  });

  it('a caller in a language outside the allow-list stays English', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));
    const q = await say(call, 'Guten Tag, wann haben Sie geöffnet, bitte?', 'de', 'de', 0.99);
    await hearsAgent(h, call, q, ENGLISH_HOURS);
    await call.hangUp();
    await call.done;
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ callerLanguage: null, callerVoice: null });
  });
});
