import { createPromptCache, createTextToSpeech, type TextToSpeech } from '../../models/tts/index.js';
import type { CallerStep } from '../../test/ari-sim/media/rtp-sim.js';
import { startAgentHarness, type AgentHarness } from '../../test/agent/harness.js';

// English and Polish calls of three questions each through the agent tests' harness (real
// core, ARI simulator, real RTP and VAD), engine doubles of fixed delay and espeak-ng (its
// Polish voice for Polish) behind a fixed extra TTS delay. Speech-to-text detects the language
// on every turn; the Polish call's first question switches the language. Shared by
// bench/agent-language.ts and bench/agent-latency.ts (the non-English turns beside the others).

export interface LanguageEngines {
  sttMs: number;
  llmMs: number;
  ttsMs: number;
}

export interface LanguageTurns {
  /** Answer turns of the English calls. */
  en: AgentHarness['metrics'];
  /** The Polish turn that switches the language (the speculation begun in English is dropped). */
  plSwitch: AgentHarness['metrics'];
  /** Polish answer turns after the switch. */
  pl: AgentHarness['metrics'];
}

export async function runLanguageCalls(calls: number, engines: LanguageEngines): Promise<LanguageTurns> {
  const h = await startAgentHarness({
    speech: (server) => {
      const espeak = createTextToSpeech(server.config.tts);
      const slowTts: TextToSpeech = {
        engine: espeak.engine,
        voiceName: espeak.voiceName,
        async synthesize(text, voice, out, signal, language) {
          await new Promise((r) => setTimeout(r, engines.ttsMs));
          return espeak.synthesize(text, voice, out, signal, language);
        },
      };
      return createPromptCache({ dataDir: server.dataDir, tts: slowTts });
    },
  });
  h.whisper.delayMs = engines.sttMs;
  h.ollama.always = { delayMs: engines.llmMs };
  const { did } = await h.business({ businessName: 'Bench Plumbing', knowledgeBase: 'Q: Hours?\nA: 8am to 6pm.' });

  // Each answer is new text, so TTS really synthesises it; in the language the prompt names.
  let seq = 0;
  h.ollama.replier = (req) => {
    const msgs = req.body.messages as Array<{ content: string }>;
    const polish = String(msgs[0]?.content).includes('The caller speaks Polish');
    const n = ++seq;
    const answer = polish ? `Odpowiedź numer ${n}: jesteśmy otwarci od ósmej.` : `Answer number ${n}: we are open from eight.`;
    return JSON.stringify({ intent: 'question', answered: true, answer });
  };

  const q = (text: string, language: string): CallerStep => ({
    after: { agentQuietMs: 500 },
    say: text,
    onSpeak: () => {
      h.whisper.defaultTranscript = text;
      h.whisper.languageOf = () => ({ language, probability: 0.95 });
    },
  });

  const callIds: Record<'en' | 'pl', number[]> = { en: [], pl: [] };
  const newCalls = (before: Set<number>) => [...new Set(h.metrics.filter((m) => !before.has(m.callId)).map((m) => m.callId))];
  for (let c = 0; c < calls; c++) {
    const before = new Set(h.metrics.map((m) => m.callId));
    await h.call(did, [q('What time do you open on Monday?', 'en'), q('And what about Tuesday please?', 'en'), q('Do you work on Saturdays too?', 'en'), { after: { agentQuietMs: 600 }, hangUp: true }]);
    callIds.en.push(...newCalls(before));
    const mid = new Set(h.metrics.map((m) => m.callId));
    await h.call(did, [
      q('Dzień dobry, o której otwieracie w poniedziałek?', 'pl'),
      q('A jak jest we wtorek, proszę?', 'pl'),
      q('Czy pracujecie też w soboty?', 'pl'),
      { after: { agentQuietMs: 600 }, hangUp: true },
    ]);
    callIds.pl.push(...newCalls(mid));
  }
  await h.close();
  const answers = (ids: number[], turns: (t: number) => boolean) => h.metrics.filter((m) => ids.includes(m.callId) && m.kind === 'answer' && turns(m.turn));
  return { en: answers(callIds.en, () => true), plSwitch: answers(callIds.pl, (t) => t === 1), pl: answers(callIds.pl, (t) => t > 1) };
}
