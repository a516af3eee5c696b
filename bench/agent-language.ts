// Issue 42: does a caller answered in Polish wait longer than one answered in English? English
// and Polish calls through the agent tests' harness (bench/lib/agent-language-calls.ts); the
// Polish call's first question switches the language, which drops the speculation begun in
// English, so that turn is shown on its own. Prints figures, never pass/fail.
// Run: npx tsx bench/agent-language.ts [calls=3] [sttMs=150] [llmMs=300] [ttsMs=100]
import { runLanguageCalls } from './lib/agent-language-calls.js';
import { machine, percentile, report } from './lib/report.js';

const CALLS = Number(process.argv[2] ?? 3);
const STT_MS = Number(process.argv[3] ?? 150);
const LLM_MS = Number(process.argv[4] ?? 300);
const TTS_MS = Number(process.argv[5] ?? 100);

const turns = await runLanguageCalls(CALLS, { sttMs: STT_MS, llmMs: LLM_MS, ttsMs: TTS_MS });

const line = (name: string, ms: typeof turns.en) => {
  const t = ms.map((m) => m.totalMs);
  const stt = ms.map((m) => m.sttMs);
  console.log(`${name.padEnd(48)} ${String(ms.length).padStart(5)} ${percentile(t, 50).toFixed(0).padStart(6)} ${percentile(t, 95).toFixed(0).padStart(6)} ${percentile(stt, 50).toFixed(0).padStart(8)}`);
  return t;
};
console.log(`agent-language on ${machine()}`);
console.log(`engine doubles: STT ${STT_MS} ms (verbose_json, language=auto), LLM ${LLM_MS} ms, TTS espeak-ng + ${TTS_MS} ms; ${CALLS} English and ${CALLS} Polish calls of 3 questions`);
console.log('\nend of caller speech → first agent audio, answer turns, ms');
console.log('turns                                            count    p50    p95  STT p50');
const en = line('English', turns.en);
const plSwitch = line('Polish, the turn that switches (no speculation)', turns.plSwitch);
const pl = line('Polish, after the switch', turns.pl);
const budget = `p50 < 900 ms (engines ${STT_MS}+${LLM_MS}+${TTS_MS} ms)`;
report({ bench: 'agent-language', measure: 'end of speech → first agent audio p50 / p95, English (detection on)', value: `${percentile(en, 50).toFixed(0)} / ${percentile(en, 95).toFixed(0)} ms`, budget });
report({ bench: 'agent-language', measure: 'end of speech → first agent audio p50 / p95, Polish after the switch', value: `${percentile(pl, 50).toFixed(0)} / ${percentile(pl, 95).toFixed(0)} ms`, budget });
report({ bench: 'agent-language', measure: 'end of speech → first agent audio p50, the Polish turn that switches', value: `${percentile(plSwitch, 50).toFixed(0)} ms` });
process.exit(0);
