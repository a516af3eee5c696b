import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { RECORDED_GREETING_TRANSCRIPT } from '../../dialogue/language/greeting-languages.js';
import { greetingRecordingFile, prepareGreetingRecording } from '../../models/audio/greeting-recording.js';
import { buildWavHeader } from '../../models/audio/wav-header.js';
import { wavFileAudio } from '../../pbx/flows/agent/speech-audio.js';
import { waitUntil } from '../helpers/wait.js';
import { eq } from 'drizzle-orm';
import type { OllamaRequest } from '../doubles/ollama/server.js';
import { summaryInAskedLanguage } from '../doubles/ollama/summary-replier.js';
import { calls, notifications } from '../helpers/tables.js';
import { reply, startAgentHarness, SUMMARY, type AgentHarness } from './harness.js';

// Issue 42 on the ARI simulator with the real core, flows, VAD and espeak-ng voices: the
// whisper double names each turn's language as whisper.cpp v1.7.6 does (verbose_json).

let h: AgentHarness;
beforeAll(async () => {
  h = await startAgentHarness({ pipeline: true });
});
afterAll(async () => {
  await h?.close();
});

const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.';
// Under 60 characters: a longer first sentence is spoken in two parts (agent-sentences.ts), and heardAudio compares it whole.
const POLISH_HOURS = 'Jesteśmy otwarci od ósmej do osiemnastej.';

/** A caller turn: whisper hears `text` in `language` with `probability`. */
const say = (text: string, language = 'en', probability = 0.96) => ({
  after: { agentQuietMs: 1000 },
  say: text,
  onSpeak: () => {
    h.whisper.defaultTranscript = text;
    h.whisper.languageOf = () => ({ language, probability });
  },
});

/** The Ollama double as the model: answers in the language the system prompt names, translates what it is asked to. */
function modelAnswering(english: Array<[RegExp, string]>, polish: Array<[RegExp, string]>, translations: Array<[RegExp, string]> = [], summary: (req: OllamaRequest) => string = () => SUMMARY) {
  h.ollama.replier = (req) => {
    const msgs = req.body.messages as Array<{ role: string; content: string }>;
    const system = msgs[0]?.content ?? '';
    const last = msgs.at(-1)?.content ?? '';
    if (system.startsWith('You summarise')) return summary(req);
    if (system.startsWith('Translate what a caller said')) return translations.find(([re]) => re.test(last))?.[1] ?? 'untranslatable';
    const map = system.includes('The caller speaks Polish') ? polish : english;
    for (const [re, r] of map) if (re.test(last)) return r;
    return reply('question', false, '');
  };
}

afterAll(() => {
  h.whisper.languageOf = () => ({ language: 'en', probability: 0.97 });
});

describe('agent call: a caller in their own language (issue 42)', { timeout: 180_000 }, () => {
  it('a one-word "Halo?" does not switch; a Polish question is answered in Polish, in the Polish voice, and the call records it', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    modelAnswering(
      [[/^Halo/, reply('question', true, 'Hello, how can I help?')]],
      [
        [/godzin/, reply('question', true, POLISH_HOURS)],
        [/do widzenia/i, reply('goodbye', true, 'Do widzenia.')],
      ],
    );
    const { channelId, session } = await h.call(biz.did, [
      // whisper is sure it is Polish, but one word is not enough to go on.
      say('Halo?', 'pl', 0.9),
      say('Dzień dobry, w jakich godzinach jesteście otwarci?', 'pl', 0.93),
      say('Dziękuję, do widzenia.', 'pl', 0.95),
      { after: { ms: 20_000 }, hangUp: true },
    ]);
    const row = await h.finishedRow(channelId);
    const lines = row.transcription!.split('\n').slice(1);
    expect(lines).toEqual([
      'Caller: Halo?',
      'Agent: Hello, how can I help?',
      'Caller: Dzień dobry, w jakich godzinach jesteście otwarci?',
      `Agent: ${POLISH_HOURS}`,
      'Caller: Dziękuję, do widzenia.',
      'Agent: Do widzenia.',
    ]);
    expect(row).toMatchObject({ callerLanguage: 'pl', callerVoice: 'espeak-ng:pl+f3' });
    // The caller heard the answer in espeak-ng's Polish voice, not the English one reading Polish.
    expect(session.heardAudio(await h.agentAudio(POLISH_HOURS, 'female', 'pl'))).toBe(true);
    // The owner's summary is asked for in English, naming the language.
    await waitUntil(() => {
      const asked = h.ollama.requests.some((r) => String(r.body.messages?.[0]?.content).startsWith('You summarise') && String(r.body.messages[0].content).includes('The caller spoke Polish.'));
      if (!asked) throw new Error('no summary asked for yet');
    }, 30_000);
    // Speech-to-text was asked to detect the language on every turn.
    expect(h.whisper.requests.at(-1)!.fields).toMatchObject({ language: 'auto', response_format: 'verbose_json' });
  });

  it("the owner's chosen Polish voice speaks the Polish greeting and answers, and the call records it; English keeps the owner's voice", async () => {
    // The owner's voice is female, but espeak-ng's male Polish voice is chosen for Polish.
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB, voicePreference: 'female', greetingLanguages: 'en,pl', languageVoices: { pl: 'espeak-ng:pl' } });
    modelAnswering([], [[/godzin/, reply('question', true, POLISH_HOURS)]]);
    const { channelId, session } = await h.call(biz.did, [say('Dzień dobry, w jakich godzinach jesteście otwarci?', 'pl', 0.93), { after: { agentQuietMs: 1000 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);
    expect(row.transcription).toContain(`Agent: ${POLISH_HOURS}`);
    expect(row).toMatchObject({ callerLanguage: 'pl', callerVoice: 'espeak-ng:pl' });
    // espeak-ng:pl is the male Polish voice: heard for the Polish greeting line and the answer, the female one never.
    expect(session.heardAudio(await h.agentAudio(POLISH_HOURS, 'male', 'pl'))).toBe(true);
    expect(session.heardAudio(await h.agentAudio(POLISH_HOURS, 'female', 'pl'))).toBe(false);
    expect(session.heardAudio(await h.agentAudio(fixedLines('pl').greeting('Acme Plumbing'), 'male', 'pl'))).toBe(true);
    // The English greeting line is still in the owner's own (female) English voice.
    expect(session.heardAudio(await h.agentAudio(fixedLines('en').greeting('Acme Plumbing'), 'female'))).toBe(true);
  });

  it("a greeting language the owner recorded plays the owner's recording and then that language's disclosure; English keeps the spoken line", async () => {
    // The owner's Welsh recording, as the console would send it: 1.5 s at 16 kHz of a sound
    // no voice makes (seeded noise), so hearing it can only be the recording.
    let seed = 42;
    const samples = Buffer.alloc(24000 * 2);
    for (let i = 0; i < 24000; i++) samples.writeInt16LE(((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 12000) - 6000, i * 2);
    const prepared = prepareGreetingRecording(Buffer.concat([buildWavHeader({ sampleRate: 16000, channels: 1, bitsPerSample: 16, dataBytes: samples.length }), samples]), 'cy');
    const biz = await h.business({ businessName: 'Siop Dai', voicePreference: 'female', greetingLanguages: 'en,cy', greetingRecordings: { cy: prepared.fileName } });
    const file = greetingRecordingFile(h.server.dataDir, biz.userId, prepared.fileName);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, prepared.wav);
    const { channelId, session } = await h.call(biz.did, [{ after: { agentQuietMs: 1000 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);
    expect(session.heardAudio(await wavFileAudio(file, 8000))).toBe(true);
    // The notice that the assistant is automated and the call recorded is still heard, in Welsh.
    expect(session.heardAudio(await h.agentAudio(fixedLines('cy').disclosure, 'female', 'cy'))).toBe(true);
    expect(session.heardAudio(await h.agentAudio(fixedLines('cy').greeting('Siop Dai'), 'female', 'cy'))).toBe(false);
    expect(session.heardAudio(await h.agentAudio(fixedLines('en').greeting('Siop Dai'), 'female'))).toBe(true);
    // The owner reads which part was their recording.
    expect(row.transcription).toContain(`Agent: ${fixedLines('en').greeting('Siop Dai')} ${RECORDED_GREETING_TRANSCRIPT} ${fixedLines('cy').disclosure}`);
  });

  it('a question the knowledge base does not cover gets the Polish admission, and is logged in English with the original', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    const question = 'Ile kosztuje naprawa podgrzewacza basenu?';
    modelAnswering([], [[/podgrzewacza/, reply('question', false, 'Około dwustu funtów.')]], [[/podgrzewacza/, 'How much does it cost to repair a pool heater?']]);
    const { channelId, session } = await h.call(biz.did, [say(question, 'pl', 0.94), { after: { agentQuietMs: 1000 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);
    const admission = fixedLines('pl').lines.notAnswered;
    expect(row.transcription).toContain(`Agent: ${admission}`);
    expect(row.transcription).not.toContain('dwustu');
    expect(session.heardAudio(await h.agentAudio(admission, 'female', 'pl'))).toBe(true);
    expect(await h.unanswered(biz.userId)).toMatchObject([
      { callId: row.id, question: 'How much does it cost to repair a pool heater?', originalQuestion: question, language: 'pl', aiResponse: admission },
    ]);
  });

  it('a language outside the allow-list stays English', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    modelAnswering([[/Öffnungszeiten/, reply('question', true, 'We are open 8am to 6pm, Monday to Friday.')]], [[/./, reply('question', true, POLISH_HOURS)]]);
    const { channelId } = await h.call(biz.did, [say('Guten Tag, wie sind Ihre Öffnungszeiten bitte?', 'de', 0.99), { after: { agentQuietMs: 1000 }, hangUp: true }]);
    const row = await h.finishedRow(channelId);
    expect(row.transcription).toContain('Agent: We are open 8am to 6pm, Monday to Friday.');
    expect(row).toMatchObject({ callerLanguage: null, callerVoice: null });
  });

  it("a language the owner has not allowed stays English, asked for or detected", async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB, agentLanguages: 'en,cy' });
    modelAnswering([[/godzin|Polish/, reply('question', true, 'We are open 8am to 6pm, Monday to Friday.')]], [[/./, reply('question', true, POLISH_HOURS)]]);
    const { channelId } = await h.call(biz.did, [
      say('Do you speak Polish?', 'en', 0.95),
      say('Dzień dobry, w jakich godzinach jesteście otwarci?', 'pl', 0.97),
      { after: { agentQuietMs: 1000 }, hangUp: true },
    ]);
    const row = await h.finishedRow(channelId);
    expect(row.transcription).not.toContain(POLISH_HOURS);
    expect(row.transcription).not.toContain(fixedLines('pl').switched);
    expect(row).toMatchObject({ callerLanguage: null, callerVoice: null });
  });

  it("the owner's summary is in English when the caller spoke a language the owner has not allowed", async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB, agentLanguages: 'en,cy', notificationNumber: '+447700900123' });
    const english = 'A caller asked in Polish when you are open and was told 8am to 6pm.';
    const polish = 'Dzwoniący zapytał po polsku o godziny otwarcia.';
    modelAnswering([[/godzin/, reply('question', true, 'We are open 8am to 6pm, Monday to Friday.')]], [], [], summaryInAskedLanguage({ English: english, Polish: polish }));
    const { channelId } = await h.call(biz.did, [
      say('Dzień dobry, w jakich godzinach jesteście otwarci?', 'pl', 0.97),
      { after: { agentQuietMs: 1000 }, hangUp: true },
    ]);
    const row = await h.finishedRow(channelId);
    expect(row).toMatchObject({ callerLanguage: null });
    const text = await waitUntil(async () => {
      const sent = (await h.server.database.db.select().from(notifications).where(eq(notifications.callId, row.id)))[0];
      if (!sent) throw new Error('the owner has no text yet');
      return sent.body;
    }, 30_000, 100);
    expect(text).toContain(english);
    expect(text).not.toContain(polish);
    expect((await h.server.database.db.select().from(calls).where(eq(calls.id, row.id)))[0]).toMatchObject({ aiSummary: english });
  });

  it('a caller who asks for English back gets English, and the call records that', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', knowledgeBase: KB });
    modelAnswering(
      [[/opening hours/, reply('question', true, 'We are open 8am to 6pm, Monday to Friday.')]],
      [[/godzin/, reply('question', true, POLISH_HOURS)]],
    );
    const { channelId, session } = await h.call(biz.did, [
      say('Dzień dobry, w jakich godzinach jesteście otwarci?', 'pl', 0.93),
      // Asked in Polish, heard as Polish: the request wins over the detection.
      say('Proszę po angielsku.', 'pl', 0.9),
      say('What are your opening hours?', 'en', 0.97),
      { after: { agentQuietMs: 1000 }, hangUp: true },
    ]);
    const row = await h.finishedRow(channelId);
    expect(row.transcription!.split('\n').slice(1)).toEqual([
      'Caller: Dzień dobry, w jakich godzinach jesteście otwarci?',
      `Agent: ${POLISH_HOURS}`,
      'Caller: Proszę po angielsku.',
      `Agent: ${fixedLines('en').switched}`,
      'Caller: What are your opening hours?',
      'Agent: We are open 8am to 6pm, Monday to Friday.',
    ]);
    expect(await h.unanswered(biz.userId)).toEqual([]);
    expect(row).toMatchObject({ callerLanguage: 'en', callerVoice: 'espeak-ng:en-gb+f3' });
    expect(session.heardAudio(await h.agentAudio('We are open 8am to 6pm, Monday to Friday.'))).toBe(true);
  });
});
