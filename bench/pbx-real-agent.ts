// The AI agent on a real Asterisk 20.17.0, measured where it matters: at the caller. Calls
// placed by SIPp with spoken questions; the agent's audio travels core → externalMedia (ulaw)
// → mixing bridge → the caller's RTP. Engine doubles with fixed latencies (STT, LLM; TTS is
// real espeak-ng). Prints figures, nothing passes or fails:
//   end of the caller's speech → first agent audio heard, p50 / p95 (what a caller waits),
//   barge-in: caller starts talking → agent audio stops, at the caller, p50 / max.
// Run: npx tsx bench/pbx-real-agent.ts [calls=20] [sttMs=150] [llmMs=300]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { waitUntil } from '../test/helpers/wait.js';
import { speech } from '../test/pbx-real/audio.js';
import { agentDone, firstAudioAfter, sayAndMark } from '../test/pbx-real/agent-caller.js';
import { realPbxAvailability, startRealPbx } from '../test/pbx-real/harness.js';
import { machine, percentile, report } from './lib/report.js';

const N = Number(process.argv[2] ?? 20);
const STT_MS = Number(process.argv[3] ?? 150);
const LLM_MS = Number(process.argv[4] ?? 300);
if (!realPbxAvailability().ok) process.exit(0);

const HOURS = 'We are open from eight in the morning to six in the evening, Monday to Friday.';
const AREAS = 'We cover Leeds, York and Harrogate. Our engineers carry parts for most boilers. A visit is usually arranged within two working days. We also offer annual servicing plans for landlords.';
const KB = `Q: What are your opening hours?\nA: ${HOURS}\n\nQ: What areas do you cover?\nA: ${AREAS}`;

console.log(`pbx-real-agent: ${N} concurrent agent calls on ${machine()}; STT ${STT_MS} ms, LLM ${LLM_MS} ms, TTS espeak-ng`);
const h = await startRealPbx({ agent: true });
h.whisper.delayMs = STT_MS;
h.ollama.always = { delayMs: LLM_MS };
h.ollama.replier = (req) => {
  const last = (req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '';
  const answer = /areas/i.test(last) ? AREAS : /hours/i.test(last) ? HOURS : 'Goodbye.';
  return JSON.stringify({ intent: /bye/i.test(last) ? 'goodbye' : 'question', answered: true, answer });
};
const question = speech('What are your opening hours?');
const areas = speech('What areas do you cover?');
const interrupt = speech('Sorry, one more thing.');

const responseMs: number[] = [];
const bargeMs: number[] = [];
const businesses = await Promise.all(Array.from({ length: N }, () => h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB })));
const batch = await h.calls(businesses.map((b) => ({ did: b.did })));
await Promise.all(
  batch.calls.map(async (c) => {
    await agentDone(c, 0);
    // Every caller asks at once (the Whisper double answers by the audio, so one transcript fits all).
    h.whisper.defaultTranscript = 'What are your opening hours?';
    const spokeUntil = await sayAndMark(c, question);
    const first = await firstAudioAfter(c, spokeUntil);
    responseMs.push(first - spokeUntil);
    await agentDone(c, first);
    h.whisper.defaultTranscript = 'What areas do you cover?';
    await c.media.say(areas);
    const asked = performance.now();
    await waitUntil(() => (c.media.soundMs(asked) > 1500 ? true : Promise.reject(new Error('answer not long enough yet'))), 60_000, 10);
    const utterance = c.media.spokeAt.length;
    void c.media.say(interrupt);
    const talkAt = await waitUntil(() => c.media.spokeAt[utterance] ?? Promise.reject(new Error('not talking')), 5000, 2);
    const stopped = await waitUntil(() => c.media.silenceStartedAfter(talkAt - 20, 300) ?? Promise.reject(new Error('agent still talking')), 20_000, 5);
    bargeMs.push(stopped - talkAt);
    await c.hangUp();
  }),
);
await batch.done;
const f = (v: number) => `${v.toFixed(0)} ms`;
report({ bench: 'pbx-real-agent', measure: `end of caller speech → first agent audio at the caller, p50 / p95 (${N} calls at once, engines ${STT_MS}+${LLM_MS} ms + TTS)`, value: `${f(percentile(responseMs, 50))} / ${f(percentile(responseMs, 95))}`, budget: 'engine time + 800 ms' });
report({ bench: 'pbx-real-agent', measure: 'barge-in: caller talks → agent audio stops, at the caller, p50 / max', value: `${f(percentile(bargeMs, 50))} / ${f(Math.max(...bargeMs))}`, budget: '< 200 ms' });
await h.close();

// The same engines on the ARI simulator, from the same run (bench/agent-latency.ts).
console.log(`\nARI simulator, same engine latencies (bench/agent-latency.ts 3 ${STT_MS} ${LLM_MS} 100):`);
const simRows = await new Promise<Array<{ measure: string; value: string }>>((resolve) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/agent-latency.ts', '3', String(STT_MS), String(LLM_MS), '100'], { cwd: path.resolve(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  child.stdout.on('data', (d: Buffer) => (buf += d));
  child.on('exit', () => resolve(buf.split('\n').filter((l) => l.startsWith('BENCH_RESULT ')).map((l) => JSON.parse(l.slice(13)))));
});
console.log('\n| measure | real Asterisk 20.17.0 (at the caller) | ARI simulator |\n|---|---|---|');
const simValue = (re: RegExp) => simRows.filter((r) => re.test(r.measure)).map((r) => `${r.value} (${r.measure})`).join('; ') || '-';
console.log(`| end of speech → first agent audio p50 / p95 | ${f(percentile(responseMs, 50))} / ${f(percentile(responseMs, 95))} | ${simValue(/first agent audio/i)} |`);
console.log(`| barge-in stop p50 / max | ${f(percentile(bargeMs, 50))} / ${f(Math.max(...bargeMs))} | ${simValue(/barge-in/i)} |`);
process.exit(0);
