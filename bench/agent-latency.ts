// Agent turn latency through the real core (test/agent/harness.ts): ARI ↔ ARI simulator, real RTP on
// loopback, real WebRTC VAD, with engine doubles of fixed delay (Whisper, Ollama) and
// espeak-ng behind a fixed extra delay for TTS. Prints figures, never pass/fail:
//   per turn: caller's end of speech → first agent audio on the wire, split into the VAD's
//   end-of-turn wait, STT, LLM first sentence, TTS first audio, and the core's own overhead;
//   and the barge-in stop time measured on the caller's side of the simulator.
// Budgets (DESIGN.md): own overhead < 50 ms, barge-in < 200 ms.
// Run: npx tsx bench/agent-latency.ts [calls=3] [sttMs=150] [llmMs=300] [ttsMs=100]
import { createPromptCache, createTextToSpeech, type TextToSpeech } from '../models/tts/index.js';
import type { CallerStep, MediaSession } from '../test/ari-sim/media/rtp-sim.js';
import { startAgentHarness } from '../test/agent/harness.js';
import { machine, percentile, report } from './lib/report.js';

const CALLS = Number(process.argv[2] ?? 3);
const STT_MS = Number(process.argv[3] ?? 150);
const LLM_MS = Number(process.argv[4] ?? 300);
const TTS_MS = Number(process.argv[5] ?? 100);

// The agent tests' harness, with espeak-ng behind a fixed extra delay as the agent's voice.
const h = await startAgentHarness({
  speech: (server) => {
    const espeak = createTextToSpeech(server.config.tts);
    const slowTts: TextToSpeech = {
      engine: espeak.engine,
      async synthesize(text, voice, out, signal) {
        await new Promise((r) => setTimeout(r, TTS_MS));
        return espeak.synthesize(text, voice, out, signal);
      },
    };
    return createPromptCache({ dataDir: server.dataDir, tts: slowTts });
  },
});
const { ollama, whisper, metrics } = h;
whisper.delayMs = STT_MS;
ollama.always = { delayMs: LLM_MS };
const { did: DID } = h.business({ businessName: 'Bench Plumbing', knowledgeBase: 'Q: Hours?\nA: 8am to 6pm.' });

// Each answer is new text, so TTS really synthesises it (no prompt-cache hit).
let answerSeq = 0;
ollama.replier = (req) => {
  const last = String((req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '');
  const n = ++answerSeq;
  if (/goodbye/i.test(last)) return JSON.stringify({ intent: 'goodbye', answered: true, answer: 'Thank you for calling. Goodbye.' });
  return JSON.stringify({ intent: 'question', answered: true, answer: `Answer number ${n}: we are open from 8am to 6pm. Is there anything else?` });
};

async function converse(steps: CallerStep[]): Promise<MediaSession> {
  return (await h.call(DID, steps)).session;
}

const q = (text: string): CallerStep => ({ after: { agentQuietMs: 500 }, say: text, onSpeak: () => (whisper.defaultTranscript = text) });

console.log(`agent-latency on ${machine()}`);
console.log(`engine doubles: STT ${STT_MS} ms, LLM ${LLM_MS} ms (whole reply), TTS espeak-ng + ${TTS_MS} ms\n`);
const sessions: MediaSession[] = [];
for (let c = 0; c < CALLS; c++) {
  sessions.push(
    await converse([q('What time do you open on Monday?'), q('And what about Tuesday please?'), q('Thank you very much, goodbye.'), { after: { ms: 20_000 }, hangUp: true }]),
  );
}

// Barge-in: the caller talks over the second sentence of a long answer.
const bargeSessions: MediaSession[] = [];
for (let c = 0; c < CALLS; c++) {
  bargeSessions.push(
    await converse([
      q('What time do you open on Monday?'),
      { after: { agentAudioMs: 1200 }, say: 'Sorry, do you work on Saturdays?', onSpeak: () => (whisper.defaultTranscript = 'Sorry, do you work on Saturdays?') },
      { after: { agentQuietMs: 600 }, hangUp: true },
    ]),
  );
}

const f = (n: number) => n.toFixed(0).padStart(6);
console.log(' call turn  kind           VAD wait    STT  LLM 1st  TTS 1st  overhead  core total  caller-side gap');
const byCall = new Map<number, typeof metrics>();
for (const m of metrics) byCall.set(m.callId, [...(byCall.get(m.callId) ?? []), m]);
const allSessions = [...sessions, ...bargeSessions];
[...byCall.entries()].forEach(([callId, turns], ci) => {
  for (const m of turns) {
    const gap = allSessions[ci]?.responseGapMs(m.turn - 1);
    console.log(
      `${String(callId).padStart(5)} ${String(m.turn).padStart(4)}  ${m.kind.padEnd(13)} ${f(m.vadWaitMs)} ${f(m.sttMs)} ${f(m.llmFirstMs)} ${f(m.ttsFirstMs)}    ${f(m.overheadMs)}      ${f(m.totalMs)}           ${gap === undefined ? '     -' : f(gap)}`,
    );
  }
});

const overhead = metrics.map((m) => m.overheadMs);
const totals = metrics.map((m) => m.totalMs);
const stops = bargeSessions.map((s) => s.bargeInStopMs(1)).filter((x): x is number => x !== undefined);
console.log(`\ncore overhead per turn: p50 ${percentile(overhead, 50).toFixed(1)} ms, p95 ${percentile(overhead, 95).toFixed(1)} ms, max ${Math.max(...overhead).toFixed(1)} ms (budget < 50 ms)`);
console.log(`end of speech → first agent audio: p50 ${percentile(totals, 50).toFixed(0)} ms, max ${Math.max(...totals).toFixed(0)} ms`);
console.log(`barge-in, caller starts talking → agent audio stops (caller side): ${stops.map((s) => s.toFixed(0)).join(', ')} ms (budget < 200 ms)`);
report({ bench: 'agent-latency', measure: 'agent turn core overhead p95', value: `${percentile(overhead, 95).toFixed(1)} ms`, budget: '< 50 ms' });
report({ bench: 'agent-latency', measure: 'end of speech → first agent audio p50', value: `${percentile(totals, 50).toFixed(0)} ms`, budget: `engines ${STT_MS}+${LLM_MS}+${TTS_MS} ms` });
report({ bench: 'agent-latency', measure: 'barge-in stop, max', value: `${Math.max(...stops).toFixed(0)} ms`, budget: '< 200 ms' });

await h.close();
process.exit(0);
