import { eq } from 'drizzle-orm';
import { tablesOf, type Tables, type NewUser } from '../../core/db/schema.js';
import type { PromptCache, Voice } from '../../models/tts/index.js';
import type { Pbx, PbxOptions } from '../../pbx/index.js';
import type { BookingDeskFactory } from '../../dialogue/agent/booking-desk.js';
import type { ConversationTiming } from '../../pbx/flows/agent/conversation-timing.js';
import type { TurnMetrics } from '../../pbx/flows/agent/turn-metrics.js';
import { sentenceAudio } from '../../pbx/flows/agent/speech-audio.js';
import { eventShapeProblems } from '../ari-sim/event-shapes.js';
import { rms } from '../../pbx/media/codecs.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { attachMediaSim, type CallerStep, type CallerTrigger, type Impairments, type MediaSession, type MediaSim } from '../ari-sim/media/rtp-sim.js';
import { readWav } from '../ari-sim/wav.js';
import { AriSimulator, type CallOutcome } from '../ari-sim/simulator.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { startWhisperDouble, type WhisperDouble } from '../doubles/whisper/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';

export const APP = 'call-answering';
export const CALLER = '+447700900777';

export interface AgentHarness {
  sim: AriSimulator;
  media: MediaSim;
  server: TestServer;
  ollama: OllamaDouble;
  whisper: WhisperDouble;
  pbx: Pbx;
  metrics: Array<TurnMetrics & { callId: number }>;
  finished: number[];
  business(fields?: Partial<NewUser>): Promise<{ userId: number; did: string }>;
  /** Places a call whose caller follows `steps`; resolves with the outcome and the media session. */
  call(did: string, steps: CallerStep[], impairments?: Impairments): Promise<{ channelId: string; outcome: CallOutcome; session: MediaSession }>;
  finishedRow(channelId: string): Promise<Tables['calls']['$inferSelect']>;
  unanswered(userId: number): Promise<Array<Tables['unansweredQuestions']['$inferSelect']>>;
  /** The agent's audio for a sentence, exactly as it goes into the codec (8 kHz for ulaw); `language` its whisper code (default English). */
  agentAudio(text: string, voice?: Voice, language?: string): Promise<Int16Array>;
  /** The Ollama double answers by the caller's last words. */
  replies(map: Array<[RegExp, string]>): void;
  protocolProblems(): string[];
  close(): Promise<void>;
}

let didSeq = 500;

export const SUMMARY = 'A caller asked about opening hours and was told 8am to 6pm, Monday to Friday.';

export const reply = (intent: string, answered: boolean, answer: string) => JSON.stringify({ intent, answered, answer });

/** Where the voice is in a caller phrase as the simulator sends it (its 20 ms frames, its loudness marks). */
function voicedSpan(text: string): { startMs: number; endMs: number; totalMs: number } {
  const wav = readWav(callerSpeech(text));
  const frame = (wav.sampleRate / 1000) * 20;
  const pcm = new Int16Array(wav.data.length >> 1);
  for (let i = 0; i < pcm.length; i++) pcm[i] = wav.data.readInt16LE(i * 2);
  let startMs = -1;
  let endMs = 0;
  for (let i = 0, ms = 0; i < pcm.length; i += frame, ms += 20) {
    const level = rms(pcm.subarray(i, i + frame));
    if (startMs < 0 && level > 150) startMs = ms;
    if (level > 300) endMs = ms + 20;
  }
  return { startMs: Math.max(0, startMs), endMs, totalMs: Math.ceil(pcm.length / frame) * 20 };
}

/**
 * A caller who says `first`, stops for `pauseMs` (voice to voice) and carries on with
 * `rest`, as one sentence. Whisper hears `first` until `rest` starts, then the whole.
 */
export function pausedSpeech(whisper: WhisperDouble, after: CallerTrigger, first: string, pauseMs: number, rest: string): CallerStep[] {
  const a = voicedSpan(first);
  const b = voicedSpan(rest);
  // The step timer runs from the start of `first`; espeak-ng's own lead-in and tail count as pause.
  const ms = a.endMs + Math.max(0, pauseMs - b.startMs);
  // A turn holding both parts is at least both voiced spans and the pause long; a turn of the
  // second part alone (the first was taken as a turn of its own on a slow machine) is shorter,
  // and Whisper hears only its words.
  const bothMs = a.endMs - a.startMs + pauseMs + (b.endMs - b.startMs);
  return [
    { after, say: first, onSpeak: () => (whisper.defaultTranscript = first) },
    { after: { ms: Math.max(ms, a.totalMs) }, say: rest, onSpeak: () => (whisper.transcriptFor = (audioMs) => (audioMs >= bothMs ? `${first} ${rest}` : rest)) },
  ];
}

/**
 * The real core and PBX (real ARI clients against the ARI simulator, real RTP over UDP on
 * loopback, real WebRTC VAD, real espeak-ng voices on both sides) with the Ollama and
 * Whisper doubles behind the real adapters.
 */
/** The core's environment for an agent on the ARI simulator, with the Ollama and Whisper doubles and espeak-ng. */
export function agentOnSimulatorEnv(sim: AriSimulator, ollama: OllamaDouble, whisper: WhisperDouble): Record<string, string> {
  return {
    ARI_URL: sim.url,
    ARI_USERNAME: sim.credentials.username,
    ARI_PASSWORD: sim.credentials.password,
    ARI_APP: APP,
    TTS_ENGINE: 'espeak-ng',
    AGENT_RTP_BIND: '127.0.0.1',
    AGENT_RTP_HOST: '127.0.0.1',
    OLLAMA_URL: ollama.url,
    OLLAMA_MODEL: 'llama3.2:3b',
    WHISPER_URL: whisper.url,
  };
}

export async function startAgentHarness(
  opts: {
    timing?: Partial<ConversationTiming>;
    pipeline?: boolean;
    /** The agent's voice; built on the server when it needs the data folder. */
    speech?: PromptCache | ((server: Pick<TestServer, 'config' | 'dataDir'>) => PromptCache);
    pbx?: PbxOptions;
    /** The agent's diary (issue 41): a fake desk until core/booking's is connected. */
    bookingDesk?: BookingDeskFactory;
    /** More of the core's environment (e.g. the stall bounds, AGENT_HOLD_AFTER_MS). */
    env?: Record<string, string>;
  } = {},
): Promise<AgentHarness> {
  const sim = new AriSimulator({ timeScale: 1 });
  await sim.start();
  const media = await attachMediaSim(sim);
  const ollama = await startOllamaDouble();
  const whisper = await startWhisperDouble();
  const metrics: AgentHarness['metrics'] = [];
  const finished: number[] = [];
  const server = await startTestServer({
    env: {
      ...agentOnSimulatorEnv(sim, ollama, whisper),
      ...opts.env,
    },
    setup: (services) => void services.hooks.callFinished.push((id) => finished.push(id)),
    // The real post-call pipeline (summary and notification), as root/main.ts runs it.
    background: { pipeline: !!opts.pipeline },
    postCall: { options: { pollMs: 100 } },
    agent: (services) => ({
      overrides: {
        timing: opts.timing,
        onTurnMetrics: (m) => metrics.push(m),
        ...(opts.bookingDesk && { bookingDesk: opts.bookingDesk }),
        ...(opts.speech
          ? {
              engines: {
                replies: services.agentEngines.replies,
                speech: typeof opts.speech === 'function' ? opts.speech({ config: services.config, dataDir: services.config.dataDir }) : opts.speech,
                stt: services.agentEngines.stt,
              },
            }
          : {}),
      },
    }),
    pbx: { backoff: { baseMs: 100, maxMs: 1000 }, ...opts.pbx },
  });
  const { unansweredQuestions } = tablesOf(server.database.db);
  const pbx = server.appliance.pbx!;
  const agent = server.appliance.agent!;
  await waitUntil(() => {
    if (!sim.appConnected(APP) || pbx.link.state !== 'connected' || !sim.appConnected(agent.mediaApp.name)) throw new Error('PBX not connected yet');
  }, 15_000);
  const speech = server.services.agentEngines.speech;

  const h: AgentHarness = {
    sim,
    media,
    server,
    ollama,
    whisper,
    pbx,
    metrics,
    finished,
    async business(fields = {}) {
      const { phoneNumbers, users } = tablesOf(server.database.db);
      const did = `+4477009${String(++didSeq).padStart(5, '0')}`;
      const user = (await server.database.db
        .insert(users)
        .values({ email: `agent${didSeq}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', aiMode: 'agent', ...fields })
        .returning())[0]!;
      await server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id, assignedAt: new Date() });
      return { userId: user.id, did };
    },
    async call(did, steps, impairments) {
      const placed = sim.call({ app: APP, from: CALLER, did });
      media.script(placed.channelId, steps, impairments);
      const session = await media.sessionFor(placed.channelId);
      const outcome = await placed.done;
      return { channelId: placed.channelId, outcome, session };
    },
    finishedRow(channelId) {
      return waitUntil(async () => {
        const { calls } = tablesOf(server.database.db);
        const row = (await server.database.db.select().from(calls).where(eq(calls.channelId, channelId)).limit(1))[0];
        if (!row?.endedAt || !finished.includes(row.id)) throw new Error('call not finished yet');
        return row;
      }, 20_000);
    },
    unanswered: async (userId) => await server.database.db.select().from(unansweredQuestions).where(eq(unansweredQuestions.userId, userId)),
    agentAudio: (text, voice = 'female', language) => sentenceAudio(speech, text, voice, 8000, language),
    replies(map) {
      ollama.replier = (req) => {
        const msgs = req.body.messages as Array<{ role: string; content: string }>;
        // The post-call job's summary request (dialogue/summary/summary.ts), not an agent turn.
        if (msgs[0]?.content.startsWith('You summarise')) return SUMMARY;
        const last = msgs.at(-1)?.content ?? '';
        for (const [re, r] of map) if (re.test(last)) return r;
        return reply('question', false, '');
      };
    },
    protocolProblems() {
      const problems = sim.violations.map((v) => `REST ${v.method} ${v.path}: ${v.status} ${v.message}`);
      for (const e of sim.sentEvents) if (sim.spec.eventTypes.has(String(e.type))) problems.push(...eventShapeProblems(sim.spec, e));
      return problems;
    },
    async close() {
      await server.close();
      media.close();
      await sim.stop();
      await ollama.close();
      await whisper.close();
    },
  };
  return h;
}
