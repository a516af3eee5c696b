// `npx tsx bench/hardware-sim.ts`: the box on real hardware, simulated (issue 61 item 3).
// For three boxes and each model choice: the agent's end of speech → first audio p50/p95 with the
// prompts the product sends (its own prompt builder, a 2,000-word knowledge base), how many agent
// calls at once the box holds under the 1.2 s p95, and a voicemail summary's time.
// COMPUTED, not slept: engine times come from published rates (models/hardware/hardware-profiles.ts)
// and the calls' queueing from a model of the shared engines (models/hardware/shared-engines.ts),
// so the figures are deterministic and the run takes a second. They are engine time plus the
// silence the product waits; the core's own overhead (under 2 ms a turn, see docs/performance.md)
// and the network are left out.
import { buildAgentTurnMessages } from '../dialogue/agent/agent-prompt.js';
import { buildSummaryPrompt } from '../dialogue/summary/summary.js';
import { loadEvalSet } from '../core/quality/evaluation/set.js';
import { sttSecondsPerAudioSecond, SPOKEN_CHARS_PER_SECOND } from '../models/hardware/engine-time.js';
import { estimateTokens } from '../models/llm/token-estimate.js';
import type { ChatMessage } from '../models/llm/language-model.js';
import { HARDWARE_PROFILES, LLM_SIZES, WHISPER_MODELS, type HardwareProfile, type LlmSize, type WhisperModel } from '../models/hardware/hardware-profiles.js';
import { callsHeld, nearestRank, type SimulatedTurn } from '../models/hardware/shared-engines.js';
import { summaryTime, turnTime, type EngineChoice, type TurnLoad } from '../models/hardware/turn-time.js';
import { firstSentenceEnd } from '../test/doubles/ollama/profile-timing.js';
import { machine, report } from './lib/report.js';

/** The speculative path starts the engines after 200 ms of silence (docs/agent.md, "Turn taking"). */
const WAITED_SILENCE_MS = 200;
const P95_TARGET_MS = 1200;
// The evaluation's heating engineer: its 2,000-word knowledge base (bench/agent-prompt-size.ts measures the same one).
const heating = (await loadEvalSet()).conversations.find((c) => c.business === 'heating');
if (!heating) throw new Error('eval/set/conversations.json has no "heating" business: the 2,000-word knowledge base this bench sizes the prompt with');
const business = { businessName: heating.businessName, knowledgeBase: heating.knowledgeBase };
const BUSINESS = heating.businessName;

/** A caller's call: what they say (and for how long), and what the agent answers. */
const CALL: { said: string; seconds: number; intent: string; answer: string }[] = [
  { said: 'Hi, do you service boilers, and how much is that?', seconds: 3.2, intent: 'question', answer: 'Yes, we service gas boilers. A standard gas boiler service is £89 including VAT and takes about an hour.' },
  { said: 'Right, and are your engineers Gas Safe registered?', seconds: 2.6, intent: 'question', answer: 'Yes, every engineer who works on gas is Gas Safe registered. They carry an ID card you can check on the register.' },
  { said: "What's the call-out fee if something's broken, um, like a leak you can't stop?", seconds: 4.8, intent: 'question', answer: 'Our emergency line runs 24 hours a day for leaks that cannot be stopped. The emergency call-out charge is £120, which includes the first hour.' },
  { said: 'Do you do landlord gas safety certificates?', seconds: 2.1, intent: 'question', answer: 'Yes. A landlord gas safety certificate is £75 for the first appliance and £15 for each extra one.' },
  { said: 'And can I pay by card on the day?', seconds: 2.2, intent: 'question', answer: 'Yes, we take debit and credit cards, and you can pay by card on the day.' },
  { said: "Lovely, thanks, that's everything. Bye.", seconds: 2.0, intent: 'goodbye', answer: 'Thank you for calling, goodbye.' },
];

const tokensOf = (messages: readonly ChatMessage[]) => estimateTokens(messages.map((m) => m.content).join('\n'));
/** Characters two prompts share from their start: what an engine's prompt cache (Ollama keeps the last prompt of a loaded model) need not read again. */
function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Each turn as the engines see it: the product's own messages for the turn (its fixed prefix,
 * the history, the turn's knowledge base entries and the caller's words). Cold, the engine reads
 * the whole prompt every turn; warm, it reads only what follows the part the previous request
 * shared with it (for the first turn, the previous call to the business: the system prompt).
 */
function turnLoads(prefixCached: boolean): TurnLoad[] {
  const history: ChatMessage[] = [];
  let previous = buildAgentTurnMessages(business, [], '').slice(0, 1).map((m) => m.content).join('\n');
  return CALL.map((t) => {
    const messages = buildAgentTurnMessages(business, history, t.said);
    const text = messages.map((m) => m.content).join('\n');
    const reply = JSON.stringify({ intent: t.intent, answered: true, answer: t.answer });
    const promptTokens = prefixCached ? estimateTokens(text.slice(sharedPrefix(previous, text))) : tokensOf(messages);
    previous = `${text}\n${reply}`;
    history.push({ role: 'user', content: t.said }, { role: 'assistant', content: reply });
    return {
      audioSeconds: t.seconds,
      promptTokens,
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
console.log(`Agent prompt: "${BUSINESS}" (the evaluation's 2,000-word knowledge base), the product's own messages per turn (dialogue/agent/agent-prompt.ts buildAgentTurnMessages);`);
console.log(`whole prompt per turn ${turnTokens.join(', ')} tokens (≈ 4 characters a token); read past the previous request's shared start (prompt cache): ${warm.map((t) => t.promptTokens).join(', ')}.`);
console.log(`Summary prompt ≈ ${estimateTokens(summaryPrompt)} tokens, reply ≈ ${estimateTokens(summaryReply)} tokens; message ${MESSAGE_SECONDS} s.`);
console.log(`A call: ${CALL.length} turns; first audio = ${WAITED_SILENCE_MS} ms silence + STT + prompt read + first sentence generated + Piper (medium voice) for it.`);
console.log('"cold": the whole prompt read every turn (calls for different businesses on one model slot); "warm": only what follows the start it shares with the previous request (the prompt cache).');
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
