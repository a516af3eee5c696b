// The AI agent against load, on a real Asterisk 20.17.0, measured at the caller (issue 27):
// end of the caller's speech → first agent audio they hear, p50 / p95, with 1, 2, 4, 8 and 16
// agent calls at once on engine doubles with a GPU's slots, with admission control and without,
// side by side. Prints figures, nothing passes or fails.
//
// The doubles (test/doubles/engine-load.ts, where the figures come from): Ollama 4 slots, a reply
// alone takes 1,435 ms (llama3.2:3b) and its first sentence comes 400 ms in, each other request in
// the batch makes both 10 % slower, and the slot is held to the reply's end; whisper.cpp 1 slot,
// 150 ms a turn.
// With admission the pools know those slots (OLLAMA_SLOTS 4, WHISPER_SLOTS 1: four conversations)
// and a fifth caller hears the busy line; without, the pools are told 64 slots, so every caller
// is put into a conversation and the requests queue inside the engines, as Ollama's own queue.
// The holding phrase keeps its 1.2 s bound, so what a caller hears first may be the phrase: the
// table gives that (the silence they sat through) and when the answer itself began.
// Each admitted caller asks TURNS questions, a random 0.2–1.5 s after the last answer ended.
// Run: npx tsx bench/pbx-real-agent-load.ts [levels=1,2,4,8,16] [turns=4]
import { AGENT_LINES } from '../dialogue/spoken/agent-lines.js';
import { GPU_BATCH_PENALTY, type EngineLoad } from '../test/doubles/engine-load.js';
import { knowledgeBaseReplier } from '../test/doubles/ollama/knowledge-base-replier.js';
import { waitUntil } from '../test/helpers/wait.js';
import { agentDone, firstAudioAfter, sayAndMark } from '../test/pbx-real/agent-caller.js';
import { envelopeMatch, readWavSamples, speech } from '../test/pbx-real/audio.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../test/pbx-real/harness.js';
import { machine, percentile, report } from './lib/report.js';

const LEVELS = (process.argv[2] ?? '1,2,4,8,16').split(',').map(Number);
const TURNS = Number(process.argv[3] ?? 4);
if (!realPbxAvailability().ok) process.exit(0);

const LLM_LOAD: EngineLoad = { slots: 4, serviceMs: 1435, firstPieceMs: 400, batchPenalty: GPU_BATCH_PENALTY };
const STT_LOAD: EngineLoad = { slots: 1, serviceMs: 150, batchPenalty: 0 };
const ARMS = [
  { name: 'with admission', env: { OLLAMA_SLOTS: String(LLM_LOAD.slots), WHISPER_SLOTS: String(STT_LOAD.slots) } },
  { name: 'without admission', env: { OLLAMA_SLOTS: '64', WHISPER_SLOTS: '64' } },
] as const;
const QUESTION = 'What are your opening hours?';
/** Two sentences: the first is spoken while the model still writes the second (a last sentence is only complete when the reply is). */
const ANSWER = 'We are open from eight until six. We are closed on Sundays.';

interface Level {
  arm: string;
  calls: number;
  admitted: number;
  /** End of speech → first agent audio heard (the answer, or the holding phrase), ms. */
  firstAudio: number[];
  /** End of speech → the answer's first audio, ms. */
  answer: number[];
  /** Turns the caller heard the holding phrase on, by the caller's ear and by the core's log. */
  heldHeard: number;
  heldLogged: number;
  load: string;
}

console.log(`pbx-real-agent-load: ${LEVELS.join(', ')} agent calls at once, ${TURNS} questions each, on ${machine()}`);
console.log(`doubles: Ollama ${JSON.stringify(LLM_LOAD)}, whisper ${JSON.stringify(STT_LOAD)}, TTS espeak-ng`);
const question = speech(QUESTION);
const results: Level[] = [];
for (const arm of ARMS) {
  // The voicemail offer pushed out of reach: a slow answer is measured, not turned into a message.
  const h = await startRealPbx({ agent: true, env: { ...arm.env, AGENT_VOICEMAIL_AFTER_MS: '120000' } });
  h.ollama.load = LLM_LOAD;
  h.whisper.load = STT_LOAD;
  h.ollama.replier = knowledgeBaseReplier('unused');
  h.whisper.defaultTranscript = QUESTION;
  const holding = readWavSamples(await h.promptFile(AGENT_LINES.holding));
  for (const n of LEVELS) {
    const level = await runLevel(h, arm.name, n, holding);
    results.push(level);
    console.log(`${arm.name}, ${n} calls: ${level.admitted} admitted; first audio p50 ${f(percentile(level.firstAudio, 50))} p95 ${f(percentile(level.firstAudio, 95))}; answer p50 ${f(percentile(level.answer, 50))} p95 ${f(percentile(level.answer, 95))}; holding phrase ${level.heldHeard} heard / ${level.heldLogged} said; load ${level.load}`);
  }
  await h.close();
}

console.log('\n| calls at once | admission: admitted | first agent audio p50 / p95 / max | answer p50 / p95 / max | holding phrase | no admission: first agent audio p50 / p95 / max | answer p50 / p95 / max | holding phrase |');
console.log('|---|---|---|---|---|---|---|---|');
for (const n of LEVELS) {
  const [w, wo] = ARMS.map((a) => results.find((r) => r.arm === a.name && r.calls === n)!);
  const cells = (l: Level) => `${spread(l.firstAudio)} | ${spread(l.answer)} | ${l.heldHeard} of ${l.answer.length}`;
  console.log(`| ${n} | ${w!.admitted} | ${cells(w!)} | ${cells(wo!)} |`);
}
for (const l of results) {
  report({
    bench: 'pbx-real-agent-load',
    measure: `${l.calls} agent calls at once, ${l.arm} (${l.admitted} admitted): end of speech → answer at the caller, p50 / p95`,
    value: `${f(percentile(l.answer, 50))} / ${f(percentile(l.answer, 95))}`,
    budget: l.arm === ARMS[0].name ? '< 900 ms p50' : undefined,
  });
}
process.exit(0);

async function runLevel(h: RealPbx, arm: string, n: number, holding: Int16Array): Promise<Level> {
  const pool = h.server.services.agentEngines.pools.llm;
  const refusedBefore = pool.stats().refusals;
  const heldBefore = heldLogged(h);
  const owners = await Promise.all(Array.from({ length: n }, (_, i) => h.business({ businessName: `Hale Plumbing ${i + 1}`, aiMode: 'agent', knowledgeBase: `Q: ${QUESTION}\nA: ${ANSWER}` })));
  const batch = await h.calls(owners.map((o) => ({ did: o.did })));
  // Admission is decided at answer time: every call is either in a conversation or refused.
  await waitUntil(() => {
    const s = pool.stats();
    if (s.conversations + s.refusals - refusedBefore < n) throw new Error('not every call has been admitted or refused yet');
  }, 60_000, 20);
  const refused = pool.stats().refusals - refusedBefore;
  // The refused calls' rows are tagged beside their voicemail: those callers hang up (nothing to time).
  const busy = await waitUntil(async () => {
    const tagged: number[] = [];
    for (const [i, o] of owners.entries()) if ((await h.rows(o.did))[0]?.agentBusy) tagged.push(i);
    if (tagged.length < refused) throw new Error(`${tagged.length} of ${refused} refused calls tagged so far`);
    return tagged;
  }, 60_000, 50);
  for (const i of busy) void batch.calls[i]!.hangUp();
  const admittedCalls = batch.calls.filter((_, i) => !busy.includes(i));
  const level: Level = { arm, calls: n, admitted: admittedCalls.length, firstAudio: [], answer: [], heldHeard: 0, heldLogged: 0, load: '' };
  await Promise.all(
    admittedCalls.map(async (c) => {
      await agentDone(c, 0, 1500); // the greeting
      for (let t = 0; t < TURNS; t++) {
        await new Promise((r) => setTimeout(r, 200 + Math.random() * 1300));
        const ended = await sayAndMark(c, question);
        const first = await firstAudioAfter(c, ended, 120_000);
        level.firstAudio.push(first - ended);
        // The holding phrase first? Then the answer begins once it has played.
        await waitUntil(() => (c.media.heard(first).length >= holding.length + 1600 || c.media.silenceStartedAfter(first, 800) !== undefined ? true : Promise.reject(new Error('still hearing'))), 120_000, 20);
        const held = envelopeMatch(holding, c.media.heard(first).subarray(0, holding.length + 1600)).score >= 0.8;
        if (held) level.heldHeard++;
        const answerAt = held ? await firstAudioAfter(c, first + (holding.length / 8) - 40, 120_000) : first;
        level.answer.push(answerAt - ended);
        await agentDone(c, answerAt, 1000);
      }
      await c.hangUp();
    }),
  );
  level.load = machine().split('load ')[1]!;
  await batch.done;
  await waitUntil(() => (pool.stats().conversations === 0 ? true : Promise.reject(new Error('conversations still open'))), 60_000, 50);
  level.heldLogged = heldLogged(h) - heldBefore;
  return level;
}

function heldLogged(h: RealPbx): number {
  return h.coreLog.filter((l) => l.msg === 'agent: the answer is slow; holding phrase').length;
}

function f(ms: number): string {
  return Number.isNaN(ms) ? '-' : `${ms.toFixed(0)} ms`;
}

function spread(samples: number[]): string {
  return samples.length ? `${f(percentile(samples, 50))} / ${f(percentile(samples, 95))} / ${f(Math.max(...samples))}` : '-';
}
