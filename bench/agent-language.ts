// Issue 42: does a caller answered in Polish wait longer than one answered in English? The
// agent tests' harness (test/agent/harness.ts: real core, ARI simulator, real RTP and VAD) with
// engine doubles of fixed delay and espeak-ng (its Polish voice for Polish) behind a fixed
// extra TTS delay. Speech-to-text is asked to detect the language on every turn in both
// (verbose_json); the Polish call's first question switches the language, which drops the
// speculation begun in English, so that turn is shown on its own. Prints figures, never pass/fail.
// Run: npx tsx bench/agent-language.ts [calls=3] [sttMs=150] [llmMs=300] [ttsMs=100]
import { createPromptCache, createTextToSpeech, type TextToSpeech } from '../models/tts/index.js';
import type { CallerStep } from '../test/ari-sim/media/rtp-sim.js';
import { startAgentHarness } from '../test/agent/harness.js';
import { machine, percentile, report } from './lib/report.js';

const CALLS = Number(process.argv[2] ?? 3);
const STT_MS = Number(process.argv[3] ?? 150);
const LLM_MS = Number(process.argv[4] ?? 300);
const TTS_MS = Number(process.argv[5] ?? 100);

const h = await startAgentHarness({
  speech: (server) => {
    const espeak = createTextToSpeech(server.config.tts);
    const slowTts: TextToSpeech = {
      engine: espeak.engine,
      voiceName: espeak.voiceName,
      async synthesize(text, voice, out, signal, language) {
        await new Promise((r) => setTimeout(r, TTS_MS));
        return espeak.synthesize(text, voice, out, signal, language);
      },
    };
    return createPromptCache({ dataDir: server.dataDir, tts: slowTts });
  },
});
h.whisper.delayMs = STT_MS;
h.ollama.always = { delayMs: LLM_MS };
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
for (let c = 0; c < CALLS; c++) {
  const before = new Set(h.metrics.map((m) => m.callId));
  await h.call(did, [q('What time do you open on Monday?', 'en'), q('And what about Tuesday please?', 'en'), q('Do you work on Saturdays too?', 'en'), { after: { agentQuietMs: 600 }, hangUp: true }]);
  callIds.en.push(...new Set(h.metrics.filter((m) => !before.has(m.callId)).map((m) => m.callId)));
  const mid = new Set(h.metrics.map((m) => m.callId));
  await h.call(did, [
    q('Dzień dobry, o której otwieracie w poniedziałek?', 'pl'),
    q('A jak jest we wtorek, proszę?', 'pl'),
    q('Czy pracujecie też w soboty?', 'pl'),
    { after: { agentQuietMs: 600 }, hangUp: true },
  ]);
  callIds.pl.push(...new Set(h.metrics.filter((m) => !mid.has(m.callId)).map((m) => m.callId)));
}
await h.close();

const answers = (ids: number[], turns: (t: number) => boolean) => h.metrics.filter((m) => ids.includes(m.callId) && m.kind === 'answer' && turns(m.turn));
const line = (name: string, ms: ReturnType<typeof answers>) => {
  const t = ms.map((m) => m.totalMs);
  const stt = ms.map((m) => m.sttMs);
  console.log(`${name.padEnd(48)} ${String(ms.length).padStart(5)} ${percentile(t, 50).toFixed(0).padStart(6)} ${percentile(t, 95).toFixed(0).padStart(6)} ${percentile(stt, 50).toFixed(0).padStart(8)}`);
  return t;
};
console.log(`agent-language on ${machine()}`);
console.log(`engine doubles: STT ${STT_MS} ms (verbose_json, language=auto), LLM ${LLM_MS} ms, TTS espeak-ng + ${TTS_MS} ms; ${CALLS} English and ${CALLS} Polish calls of 3 questions`);
console.log('\nend of caller speech → first agent audio, answer turns, ms');
console.log('turns                                            count    p50    p95  STT p50');
const en = line('English', answers(callIds.en, () => true));
const plSwitch = line('Polish, the turn that switches (no speculation)', answers(callIds.pl, (t) => t === 1));
const pl = line('Polish, after the switch', answers(callIds.pl, (t) => t > 1));
const budget = `p50 < 900 ms (engines ${STT_MS}+${LLM_MS}+${TTS_MS} ms)`;
report({ bench: 'agent-language', measure: 'end of speech → first agent audio p50 / p95, English (detection on)', value: `${percentile(en, 50).toFixed(0)} / ${percentile(en, 95).toFixed(0)} ms`, budget });
report({ bench: 'agent-language', measure: 'end of speech → first agent audio p50 / p95, Polish after the switch', value: `${percentile(pl, 50).toFixed(0)} / ${percentile(pl, 95).toFixed(0)} ms`, budget });
report({ bench: 'agent-language', measure: 'end of speech → first agent audio p50, the Polish turn that switches', value: `${percentile(plSwitch, 50).toFixed(0)} ms` });
process.exit(0);
