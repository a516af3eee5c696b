// `npx tsx bench/hardware-sim.ts`: the box on real hardware, simulated (issue 61 item 3).
// For three boxes and each model choice: the agent's end of speech → first audio p50/p95 with the
// prompts the product sends (its own prompt builder, a 2,000-word knowledge base), how many agent
// calls at once the box holds under the 1.2 s p95, and a voicemail summary's time.
// COMPUTED, not slept: engine times come from published rates (models/hardware/hardware-profiles.ts)
// and the calls' queueing from a model of the shared engines (models/hardware/shared-engines.ts),
// so the figures are deterministic and the run takes a second. They are engine time plus the
// silence the product waits; the core's own overhead (under 2 ms a turn, see docs/performance.md)
// and the network are left out.
import fs from 'node:fs';
import path from 'node:path';
import { buildAgentSystemPrompt } from '../dialogue/agent/agent-prompt.js';
import { buildSummaryPrompt } from '../dialogue/summary/summary.js';
import { estimateTokens, sttSecondsPerAudioSecond, SPOKEN_CHARS_PER_SECOND } from '../models/hardware/engine-time.js';
import { HARDWARE_PROFILES, LLM_SIZES, WHISPER_MODELS, type HardwareProfile, type LlmSize, type WhisperModel } from '../models/hardware/hardware-profiles.js';
import { callsHeld, nearestRank, type SimulatedTurn } from '../models/hardware/shared-engines.js';
import { summaryTime, turnTime, type EngineChoice, type TurnLoad } from '../models/hardware/turn-time.js';
import { firstSentenceEnd } from '../test/doubles/ollama/profile-timing.js';
import { machine, report } from './lib/report.js';

/** The speculative path starts the engines after 200 ms of silence (docs/agent.md, "Turn taking"). */
const WAITED_SILENCE_MS = 200;
const P95_TARGET_MS = 1200;
const BUSINESS = 'Hughes Plumbing and Heating';
const knowledgeBase = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/knowledge-base-2000-words.txt'), 'utf8');

/** A caller's call: what they say (and for how long), and what the agent answers. */
const CALL: { said: string; seconds: number; intent: string; answer: string }[] = [
  { said: 'Hi, do you service boilers, and how much is that?', seconds: 3.2, intent: 'question', answer: 'Yes, we service all makes of gas boiler. A standard annual service costs £95 including VAT and takes about an hour.' },
  { said: 'Right, and are your engineers Gas Safe registered?', seconds: 2.6, intent: 'question', answer: 'Yes, every engineer who works on gas is Gas Safe registered. They carry an ID card you can check on the register.' },
  { said: "What's the call-out fee if something's broken, um, like a leak under the sink?", seconds: 4.8, intent: 'question', answer: 'A standard visit costs £75 including VAT and covers the first hour. After that it is £55 an hour, in half-hour steps.' },
  { said: 'Do you cover Portishead?', seconds: 1.6, intent: 'question', answer: 'Yes, Portishead is in our area.' },
  { said: 'And can I pay by card on the day?', seconds: 2.2, intent: 'question', answer: 'Yes, our engineers carry card machines and email you a receipt.' },
  { said: "Lovely, thanks, that's everything. Bye.", seconds: 2.0, intent: 'goodbye', answer: 'Thank you for calling, goodbye.' },
];

const system = buildAgentSystemPrompt({ businessName: BUSINESS, knowledgeBase });
const systemTokens = estimateTokens(system);

/** Each turn as the engines see it: the whole conversation so far is sent with every request. */
function turnLoads(prefixCached: boolean): TurnLoad[] {
  const history: string[] = [system];
  return CALL.map((t) => {
    history.push(t.said);
    const reply = JSON.stringify({ intent: t.intent, answered: true, answer: t.answer });
    const promptTokens = estimateTokens(history.join('\n'));
    history.push(reply);
    return {
      audioSeconds: t.seconds,
      // With the system prompt identical from turn to turn (and call to call, for one business), the
      // engine's prompt cache holds it and only the conversation after it is read.
      promptTokens: prefixCached ? promptTokens - systemTokens : promptTokens,
      tokensToFirstSentence: estimateTokens(reply.slice(0, firstSentenceEnd(reply))),
      replyTokens: estimateTokens(reply),
      firstSentence: t.answer.slice(0, firstSentenceEnd(t.answer)).trim(),
    };
  });
}

function script(choice: EngineChoice, loads: TurnLoad[]): SimulatedTurn[] {
  return loads.map((load, i) => ({
    time: turnTime(choice, load, WAITED_SILENCE_MS),
    speakingMs: CALL[i]!.seconds * 1000,
    replySpokenMs: (CALL[i]!.answer.length / SPOKEN_CHARS_PER_SECOND) * 1000,
  }));
}

// The voicemail summary: a 30 s message (about 75 words) through Whisper, then the summary prompt.
const MESSAGE_SECONDS = 30;
const message =
  "Hi, it's Jenny Marsh from 14 Elm Grove in Keynsham. Our boiler's been making a banging noise since last night and this morning there's no hot water at all, though the heating still comes on. It's a Worcester, about eight years old. Could someone call me back on 07700 900123 to book a visit, ideally tomorrow morning? Thanks very much.";
const summaryPrompt = buildSummaryPrompt({ transcript: message, callerNumber: '+447700900123', businessName: BUSINESS, mode: 'voicemail' })
  .map((m) => m.content)
  .join('\n');
const summaryReply = JSON.stringify({
  summary: 'Jenny Marsh in Keynsham: her Worcester boiler bangs and there has been no hot water since last night. She wants a visit, ideally tomorrow morning. Call 07700 900123.',
  urgency: 'normal',
  urgencyReason: 'no hot water, heating still works',
  callClass: 'genuine',
  wantsBooking: true,
});

interface Row {
  box: HardwareProfile;
  llm: LlmSize;
  whisper: WhisperModel;
  cold: { p50: number; p95: number; held: number };
  warm: { p50: number; p95: number; held: number };
  summaryMs: number;
}

const cold = turnLoads(false);
const warm = turnLoads(true);
const rows: Row[] = [];
for (const box of HARDWARE_PROFILES) {
  for (const llm of LLM_SIZES) {
    for (const whisper of WHISPER_MODELS) {
      const choice = { box, llm, whisper };
      const figures = (loads: TurnLoad[]) => {
        const s = script(choice, loads);
        const alone = s.map((t) => t.time.total);
        return { p50: nearestRank(alone, 50), p95: nearestRank(alone, 95), held: callsHeld(s, WAITED_SILENCE_MS, P95_TARGET_MS) };
      };
      const summary = summaryTime(choice, { audioSeconds: MESSAGE_SECONDS, promptTokens: estimateTokens(summaryPrompt), replyTokens: estimateTokens(summaryReply) });
      rows.push({ box, llm, whisper, cold: figures(cold), warm: figures(warm), summaryMs: summary.total });
    }
  }
}

const s = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const turnTokens = cold.map((t) => t.promptTokens);

console.log('Simulated hardware (COMPUTED from published rates, not slept; see models/hardware/hardware-profiles.ts for each source).');
console.log(`Agent prompt: system prompt ${system.length} characters ≈ ${systemTokens} tokens (2,000-word knowledge base, dialogue/agent/agent-prompt.ts);`);
console.log(`whole prompt per turn ${turnTokens[0]}–${turnTokens.at(-1)} tokens (≈ 4 characters a token); with the system prompt cached ${warm[0]!.promptTokens}–${warm.at(-1)!.promptTokens}.`);
console.log(`Summary prompt ≈ ${estimateTokens(summaryPrompt)} tokens, reply ≈ ${estimateTokens(summaryReply)} tokens; message ${MESSAGE_SECONDS} s.`);
console.log(`A call: ${CALL.length} turns; first audio = ${WAITED_SILENCE_MS} ms silence + STT + prompt read + first sentence generated + Piper (medium voice) for it.`);
console.log('"cold": the whole prompt read every turn (calls for different businesses on one model slot); "warm": the system prompt held by the prompt cache.');
console.log(`"calls": most agent calls at once with end of speech → first audio p95 ≤ ${P95_TARGET_MS} ms (queueing model over one Whisper, one model slot, two Piper slots).\n`);
console.log('| box | LLM | Whisper | STT s per s of audio (3 s turn / 30 s message) | first audio p50 / p95, cold | calls, cold | first audio p50 / p95, warm | calls, warm | voicemail summary (30 s) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const rate = r.box.stt[r.whisper];
  console.log(
    `| ${r.box.example} | ${r.llm.toUpperCase()} | ${r.whisper} | ${sttSecondsPerAudioSecond(rate, 3).toFixed(2)} / ${sttSecondsPerAudioSecond(rate, 30).toFixed(3)} | ${s(r.cold.p50)} / ${s(r.cold.p95)} | ${r.cold.held} | ${s(r.warm.p50)} / ${s(r.warm.p95)} | ${r.warm.held} | ${s(r.summaryMs)} |`,
  );
}

console.log(`\nWhat each box can run. Agent mode: the most calls at once under the ${P95_TARGET_MS} ms p95 for each model size (its best Whisper, warm prompt cache). Voicemail: one summary's time (STT, then the model) and so summaries an hour, one after another.`);
for (const box of HARDWARE_PROFILES) {
  const mine = rows.filter((r) => r.box === box);
  const bySize = LLM_SIZES.map((llm) => mine.filter((r) => r.llm === llm).sort((a, b) => b.warm.held - a.warm.held || a.warm.p95 - b.warm.p95)[0]!);
  const able = bySize.filter((r) => r.warm.held > 0);
  const agentText = able.length
    ? `${able.map((r) => `${r.llm.toUpperCase()} + ${r.whisper} holds ${r.warm.held}`).join(', ')}${able.length < LLM_SIZES.length ? `; ${bySize.filter((r) => !r.warm.held).map((r) => r.llm.toUpperCase()).join(' and ')} cannot (p95 ${bySize.filter((r) => !r.warm.held).map((r) => s(r.warm.p95)).join(', ')}): use ${able.at(-1)!.llm.toUpperCase()} or smaller` : ''}`
    : `no model size can: the fastest choice (${bySize[0]!.llm.toUpperCase()} + ${bySize[0]!.whisper}) answers in ${s(bySize[0]!.warm.p95)} at p95; use voicemail mode`;
  const fastest = (llm: LlmSize) => Math.min(...mine.filter((r) => r.llm === llm).map((r) => r.summaryMs));
  const voicemail = LLM_SIZES.map((llm) => `${llm.toUpperCase()} ${s(fastest(llm))} (${Math.floor(3_600_000 / fastest(llm))} an hour)`).join(', ');
  console.log(`- ${box.name} (${box.example}): agent mode: ${agentText}. Voicemail summary (base.en): ${voicemail}.`);
  for (const llm of LLM_SIZES) {
    const best = mine.filter((r) => r.llm === llm).sort((a, b) => a.warm.p95 - b.warm.p95)[0]!;
    report({
      bench: 'hardware-sim',
      measure: `${box.example}, ${llm.toUpperCase()} + ${best.whisper}: first audio p50 / p95 warm (cold), calls held warm (cold), 30 s voicemail summary — computed from published rates`,
      value: `${s(best.warm.p50)} / ${s(best.warm.p95)} (${s(best.cold.p50)} / ${s(best.cold.p95)}); ${best.warm.held} (${best.cold.held}); ${s(best.summaryMs)}`,
      budget: 'p95 < 1.2 s',
    });
  }
}
console.log(`\nMachine (the simulation's own, irrelevant to the figures): ${machine()}`);
