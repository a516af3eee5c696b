import { Writable } from 'node:stream';
import pino from 'pino';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { tablesOf, type Tables, type NewUser } from '../../core/db/schema.js';
import type { ConversationTiming } from '../../pbx/flows/agent/conversation-timing.js';
import type { TurnMetrics } from '../../pbx/flows/agent/turn-metrics.js';
import type { Pbx, PbxOptions } from '../../pbx/index.js';
import type { Services } from '../../core/services.js';
import type { BookingDeskFactory } from '../../dialogue/agent/booking-desk.js';
import { createPromptCache, createTextToSpeech } from '../../models/tts/index.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { startWhisperDouble, type WhisperDouble } from '../doubles/whisper/server.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, readWavSamples } from './audio.js';
import { findAsterisk } from './asterisk-install.js';
import { AsteriskInstance } from './asterisk-instance.js';
import { insertBusiness } from './business.js';
import { OwnerPhone } from './owner-phone.js';
import { placeCall, placeCalls, type CallSpec, type PlaceOptions, type SipCall, type SippBatch } from './sipp.js';

// The real core (in this process: temp SQLite, real HTTP server, real ARI clients) against
// a real Asterisk 20.17.0 running the project's own configuration, called by SIPp.

export const CALLER = '+447700900555';

/**
 * For tests about what the agent answers: the stall watch's holding phrase and message
 * offer (AGENT_HOLD_AFTER_MS, AGENT_VOICEMAIL_AFTER_MS) pushed past any turn, so a slow
 * answer on a loaded machine is still heard as itself. agent-stall.test.ts tests the watch.
 */
export const ANSWERS_ONLY = { AGENT_HOLD_AFTER_MS: '60000', AGENT_VOICEMAIL_AFTER_MS: '120000' };

export interface RealPbx {
  asterisk: AsteriskInstance;
  /** With `ownerPhone`: the phone owners' transfer numbers ring (the trunk's far end). */
  ownerPhone?: OwnerPhone;
  server: TestServer;
  pbx: Pbx;
  ollama: OllamaDouble;
  whisper: WhisperDouble;
  finished: number[];
  metrics: Array<TurnMetrics & { callId: number }>;
  /** Every line the core logged (pino JSON, info and above). */
  coreLog: Array<{ level: number; msg: string; [k: string]: unknown }>;
  /** The prompt file the core made for `text` in `voice` (what callers hear). */
  /** The agent's prompt for `text`; `language` its whisper code (default English). */
  promptFile(text: string, voice?: 'female' | 'male', language?: string): Promise<string>;
  business(fields?: Partial<NewUser>): Promise<{ userId: number; did: string }>;
  call(did: string, from?: string): Promise<SipCall & { done: SippBatch['done']; kill(): void }>;
  calls(specs: CallSpec[], place?: PlaceOptions): Promise<SippBatch>;
  /** The call row for `did` once it is final and announced (hooks.callFinished). */
  finishedRow(did: string, timeoutMs?: number): Promise<Tables['calls']['$inferSelect']>;
  rows(did: string): Promise<Array<Tables['calls']['$inferSelect']>>;
  unanswered(userId: number): Promise<Array<Tables['unansweredQuestions']['$inferSelect']>>;
  close(): Promise<void>;
}

export interface RealPbxOptions {
  pbx?: PbxOptions;
  agent?: boolean;
  pipeline?: boolean;
  timing?: Partial<ConversationTiming>;
  env?: Record<string, string>;
  /** Starts the owner's phone and points the trunk and OUTBOUND_ENDPOINT at it (warm transfers). */
  ownerPhone?: boolean;
  /** Extra environment for Asterisk's entrypoint.sh (e.g. PBX_MAX_CALLS). */
  asteriskEnv?: Record<string, string>;
  /** Asterisk's RTP ports (default 200). */
  rtpPorts?: number;
  /** Puts something between the core and ARI (e.g. a logging proxy), before the core connects: returns the URL the core uses. */
  ariVia?: (asteriskUrl: string, asterisk: AsteriskInstance) => Promise<string>;
  /** Serves the built console too (browser tests of "Call my line"). */
  consoleDir?: string;
  /** Replaces some of the API's rate limits (a bench that presses "Call my line" more than an owner may). */
  rateLimits?: TestServerOptions['rateLimits'];
  /** Adjusts the core's services before the PBX and the agent are built on them (e.g. wraps an engine). */
  services?: (services: Services) => void;
  /** The agent's diary (issue 41): by default core/booking's desk on the harness's database; a fake (test/helpers/fake-booking-desk.ts) or another core's desk replaces it. */
  bookingDesk?: BookingDeskFactory;
  /** The Ollama double's models at start (`[]`: a fresh Ollama that must pull OLLAMA_MODEL first); when set, the core watches the model (issue 60) as in production. */
  ollamaModels?: string[];
  /** Holds the double's `/api/pull` until this settles (set before the core starts, which pulls at once). */
  ollamaPullUntil?: Promise<unknown>;
  /**
   * Starts the core's call-back sweep as production does (root/compose.ts hands it the PBX's own
   * dialler). Its timer runs every CALL_BACK_SWEEP_MS: a test that sweeps by hand sets that far off.
   */
  callBacks?: boolean;
}

export async function startRealPbx(opts: RealPbxOptions = {}): Promise<RealPbx> {
  const found = findAsterisk();
  if (!found.ok) throw new Error(found.why);
  // Before Asterisk: its first qualify of the trunk must find the phone there.
  const ownerPhone = opts.ownerPhone ? await OwnerPhone.start() : undefined;
  const asterisk = await AsteriskInstance.start({ root: found.root, rtpPorts: opts.rtpPorts, env: { ...(ownerPhone ? { SIP_UKDID_HOST: `127.0.0.1:${ownerPhone.port}` } : {}), ...opts.asteriskEnv } });
  const ollama = await startOllamaDouble({ models: opts.ollamaModels });
  if (opts.ollamaPullUntil) ollama.pull.until = opts.ollamaPullUntil;
  const whisper = await startWhisperDouble();
  const coreLog: RealPbx['coreLog'] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) coreLog.push(JSON.parse(line));
      done();
    },
  });
  const finished: number[] = [];
  const metrics: RealPbx['metrics'] = [];
  const server = await startTestServer({
    consoleDir: opts.consoleDir,
    rateLimits: opts.rateLimits,
    log: pino({ level: 'info' }, sink),
    env: {
      ARI_URL: opts.ariVia ? await opts.ariVia(asterisk.ari.url, asterisk) : asterisk.ari.url,
      ARI_USERNAME: asterisk.ari.username,
      ARI_PASSWORD: asterisk.ari.password,
      ARI_APP: asterisk.ari.app,
      TTS_ENGINE: 'espeak-ng',
      AGENT_RTP_BIND: '127.0.0.1',
      AGENT_RTP_HOST: '127.0.0.1',
      OLLAMA_URL: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      WHISPER_URL: whisper.url,
      // The SIPp owner phone answers numbers in Ofcom's drama range (+447700 9…), which the
      // toll-fraud rule would not dial: the operator's allow-list lets it, as a real one would.
      ...(ownerPhone ? { OUTBOUND_ENDPOINT: 'PJSIP/{number}@uk-did', OUTBOUND_ALLOW: '+447700' } : {}),
      ...opts.env,
    },
    setup: (services) => {
      opts.services?.(services);
      asterisk.mountPrompts(path.join(services.config.dataDir, 'prompts'));
      services.hooks.callFinished.push((id) => finished.push(id));
    },
    background: { pipeline: !!opts.pipeline, model: opts.ollamaModels !== undefined, callBacks: !!opts.callBacks },
    postCall: { options: { pollMs: 100 } },
    ...(opts.agent && { agent: { overrides: { timing: opts.timing, onTurnMetrics: (m) => metrics.push(m), ...(opts.bookingDesk && { bookingDesk: opts.bookingDesk }) } } }),
    pbx: { backoff: { baseMs: 100, maxMs: 1000 }, ...opts.pbx },
  });
  const pbx = server.appliance.pbx!;
  const agent = server.appliance.agent;
  await waitUntil(() => {
    if (pbx.link.state !== 'connected') throw new Error('PBX not connected to Asterisk yet');
    if (agent && !agent.mediaApp.connected) throw new Error('agent media app not registered yet');
  }, 20_000);
  const db = server.database.db;
  const { calls, unansweredQuestions } = tablesOf(db);
  const pbxPrompts = createPromptCache({ dataDir: server.dataDir, tts: createTextToSpeech(server.config.tts) });

  return {
    asterisk,
    ownerPhone,
    server,
    pbx,
    ollama,
    whisper,
    finished,
    metrics,
    coreLog,
    async promptFile(text, voice = 'female', language) {
      return (await pbxPrompts.get(text, voice, 'background', language)).file;
    },
    business: (fields = {}) => insertBusiness(db, fields),
    call: (did, from = CALLER) => placeCall(asterisk.sipPort, { did, from }),
    calls: (specs, place) => placeCalls(asterisk.sipPort, specs, place),
    rows: async (did) => await db.select().from(calls).where(eq(calls.toNumber, did)),
    finishedRow(did, timeoutMs = 30_000) {
      return waitUntil(async () => {
        const row = (await db.select().from(calls).where(eq(calls.toNumber, did)).limit(1))[0];
        if (!row?.endedAt || !finished.includes(row.id)) throw new Error(`the call to ${did} is not finished yet`);
        return row;
      }, timeoutMs, 100);
    },
    unanswered: async (userId) => await db.select().from(unansweredQuestions).where(eq(unansweredQuestions.userId, userId)),
    async close() {
      await server.close();
      await asterisk.destroy();
      await ownerPhone?.stop();
      await ollama.close();
      await whisper.close();
    },
  };
}

/**
 * For `describe.skipIf(!realPbx.ok)`: says once, in one line, why the suite is skipped and
 * how to get Asterisk. In CI (CI=true) a missing Asterisk is an error, never a skip.
 */
export function realPbxAvailability(): { ok: boolean } {
  const found = findAsterisk();
  if (found.ok) return { ok: true };
  if (process.env.CI) throw new Error(`CI must run the real-PBX suite: ${found.why}`);
  if (!warned) console.warn(found.why);
  warned = true;
  return { ok: false };
}
let warned = false;

/**
 * Waits until `check` passes on what the caller heard. A test process that was held up runs its
 * timers before reading the audio that arrived meanwhile: read it, then judge again, so a stall
 * here is not taken for a moment in the call.
 */
function heardWhen(check: () => number, timeoutMs: number): Promise<number> {
  return waitUntil(async () => {
    check();
    await new Promise((r) => setImmediate(r));
    return check();
  }, timeoutMs, 20);
}

/** Waits until the caller has heard the greeting and the beep (sound, then `quietMs` of quiet): the moment to speak. */
export function heardGreetingAndBeep(call: SipCall, quietMs = 700, timeoutMs = 60_000): Promise<number> {
  return heardWhen(() => {
    if (call.media.soundMs() < 1000) throw new Error('the greeting has not started');
    const at = call.media.silenceStartedAfter(0, quietMs);
    if (at === undefined) throw new Error('the greeting is still playing');
    return at;
  }, timeoutMs);
}

/**
 * Waits until the caller has heard the record beep end (a 1000 Hz tone, not a quiet gap), as a
 * real caller waits before speaking: a pause between a greeting's sentences, or audio held
 * up on a loaded machine, is not taken for the greeting's end. Returns when the beep ended.
 */
export function heardBeep(call: SipCall, timeoutMs = 60_000): Promise<number> {
  return heardWhen(() => {
    const at = call.media.beepEndedAfter();
    if (at === undefined) throw new Error('the beep has not been heard yet');
    return at;
  }, timeoutMs);
}

/** The texts sent (or tried) about call `callId`, once one of them has been sent. */
export function textsSent(h: RealPbx, callId: number, timeoutMs = 60_000): Promise<Array<Tables['notifications']['$inferSelect']>> {
  return waitUntil(async () => {
    const { notifications } = tablesOf(h.server.database.db);
    const sent = await h.server.database.db.select().from(notifications).where(eq(notifications.callId, callId));
    if (!sent.some((n) => n.status === 'sent')) throw new Error(`no text sent yet about call ${callId}`);
    return sent;
  }, timeoutMs, 100);
}

/** How closely `heard` matches the prompt the core makes for `text` (envelopeMatch's score; a line heard scores above 0.8). */
export async function promptHeard(h: RealPbx, heard: Int16Array, text: string, voice: 'female' | 'male' = 'female'): Promise<number> {
  return envelopeMatch(readWavSamples(await h.promptFile(text, voice)), heard).score;
}
