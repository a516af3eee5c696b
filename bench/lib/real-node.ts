// One node as an operator runs it, for the real-PBX benches: a real Asterisk 20.17.0 (the
// project's configuration), the core as its own process (root/main.ts) behind a logging ARI
// proxy, the Whisper and Ollama doubles, and `dids` businesses in voicemail mode. Callers are
// SIPp processes (test/pbx-real/sipp.ts); every call is accounted for afterwards: what the
// caller experienced and how the appliance filed it, down to the owner's text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../../core/db/client.js';
import { tablesOf } from '../../core/db/schema.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { wavDurationOf } from '../../pbx/recordings/recording-retries.js';
import { startOllamaDouble } from '../../test/doubles/ollama/server.js';
import { startWhisperDouble } from '../../test/doubles/whisper/server.js';
import { startCoreProcess, type CoreProcess } from '../../test/helpers/core-process.js';
import { waitUntil } from '../../test/helpers/wait.js';
import { startAriTap, type AriTap } from '../../test/pbx-real/ari-tap.js';
import { AsteriskInstance } from '../../test/pbx-real/asterisk-instance.js';
import { speech } from '../../test/pbx-real/audio.js';
import type { CallerMedia } from '../../test/pbx-real/caller-media.js';
import { heardBeep } from '../../test/pbx-real/harness.js';
import { placeCalls, type CallSignalling, type PlaceOptions } from '../../test/pbx-real/sipp.js';
import { countWakeUps } from './thread-wakeups.js';

/** utime + stime of a process, in seconds (Linux /proc); 0 once it has gone. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, and the children's (SIPp's shell for each answer) once they were waited for.
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100; // USER_HZ = 100
  } catch {
    return 0;
  }
}

/** The conditions a figure was taken under, printed beside it. */
export function conditions(): string {
  const [l1, l5] = os.loadavg();
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), load ${l1!.toFixed(1)} (1 min) / ${l5!.toFixed(1)} (5 min)`;
}

/** How one call ended, from the caller's side and the appliance's. */
export interface CallAccount {
  did: string;
  from: string;
  signalling: CallSignalling;
  /** Heard the greeting through to its beep (the record tone). */
  heardGreeting: boolean;
  spoke: boolean;
  /** The row's status, or 'no row' / 'open' (never made final). */
  filed: string;
  /** Seconds of stored recording (0: none). */
  storedSeconds: number;
  jobDone: boolean;
  /** Summary texts sent to the owner for this call (one is right). */
  texts: number;
  /** When the caller began and finished speaking (performance.now(), this process's clock, as the ARI proxy's log). */
  spokeFrom?: number;
  spokeUntil?: number;
  /** When the caller heard the record beep end (performance.now()): a caller speaks after the beep, never in a pause of the greeting. */
  beepEndedAt?: number;
  /** The caller's RTP: where it sent, what it sent while speaking, where it heard from. */
  audio?: string;
  /** What crossed the caller's socket in the whole call (wireOf). */
  wire: CallerWire;
  verdict: 'stored' | 'LOST MESSAGE' | 'refused (503)' | 'never answered' | 'no greeting heard';
}

export interface NodeOptions {
  dids: number;
  /** Extra environment for the core (e.g. admission limits). */
  coreEnv?: Record<string, string>;
  /** Extra environment for Asterisk's entrypoint (e.g. PBX_MAX_CALLS). */
  asteriskEnv?: Record<string, string>;
  /** Asterisk's RTP ports (four per call: a caller's pair and room for a second; the entrypoint renders maxcalls as a quarter of them); default max(200, dids × 4). */
  rtpPorts?: number;
}

/** Where every business's summary texts go (the outbox gateway writes them to $DATA_DIR/outbox). */
const OWNER_MOBILE = '+447700900444';

const WORDS = 'Hello, please call me back about the leaking tap in the kitchen. Thanks.';

export class RealNode {
  private constructor(
    readonly asterisk: AsteriskInstance,
    readonly tap: AriTap,
    readonly core: CoreProcess,
    readonly dataDir: string,
    private readonly db: ReturnType<typeof openDatabase>,
    readonly dids: string[],
    private readonly closers: Array<() => Promise<unknown>>,
  ) {}

  static async start(root: string, opts: NodeOptions): Promise<RealNode> {
    const asterisk = await AsteriskInstance.start({ root, rtpPorts: opts.rtpPorts ?? Math.max(200, opts.dids * 4), env: opts.asteriskEnv });
    // Verbose 4 adds the RTP instances' strict-RTP learning (three lines a call): which source
    // each call's stream was locked on, for the story of a caller who heard nothing.
    asterisk.cli('logger add channel rtp-learning.log verbose(4)');
    const tap = await startAriTap(asterisk.ari.url);
    const whisper = await startWhisperDouble();
    whisper.defaultTranscript = 'Please call me back about the leaking tap.';
    const ollama = await startOllamaDouble();
    ollama.replier = () => 'A caller asked to be called back about a leaking tap.';
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-real-'));
    asterisk.mountPrompts(path.join(dataDir, 'prompts'));
    const db = openDatabase(path.join(dataDir, 'appliance.db'));
    const { phoneNumbers, users } = tablesOf(db.db);
    const dids: string[] = [];
    for (let i = 0; i < opts.dids; i++) {
      const did = `+4477009${String(10000 + i).padStart(5, '0')}`;
      const u = (await db.db.insert(users).values({ email: `b${i}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', businessName: 'Hale Plumbing', smsEnabled: true, notificationNumber: OWNER_MOBILE }).returning())[0]!;
      await db.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: u.id });
      dids.push(did);
    }
    const core = await startCoreProcess(dataDir, {
      ARI_URL: tap.url,
      ARI_USERNAME: asterisk.ari.username,
      ARI_PASSWORD: asterisk.ari.password,
      ARI_APP: asterisk.ari.app,
      WHISPER_URL: whisper.url,
      OLLAMA_URL: ollama.url,
      LOG_LEVEL: 'info', // the "listening" line startCoreProcess waits for is at info
      ...opts.coreEnv,
    });
    const node = new RealNode(asterisk, tap, core, dataDir, db, dids, [tap.close, whisper.close, ollama.close]);
    // The greeting is made once before any burst (as it is after the owner saves it), as on a box in use.
    const warm = await placeCalls(asterisk.sipPort, [{ did: dids[0]! }]);
    await heardBeep(warm.calls[0]!);
    await warm.calls[0]!.hangUp();
    await warm.done;
    return node;
  }

  /**
   * Places one caller per DID in `dids` (all at once, or `ratePerSecond`), each of whom waits
   * for the greeting and beep, speaks a message and waits for the box to hang up; returns the
   * SIPp result and what each caller heard, plus CPU seconds used meanwhile by each process:
   * Asterisk, the core, and the load generator's two parts (SIPp's signalling, and this
   * process, which carries every caller's audio and the ARI proxy). `tag` makes the callers'
   * numbers unique across batches on one node (the accounting finds a call by DID and caller).
   */
  async call(dids: string[], place: PlaceOptions = {}, tag = 20000) {
    const cpu0 = { asterisk: cpuSeconds(this.asterisk.pid), core: cpuSeconds(this.core.child.pid), bench: process.cpuUsage() };
    const asteriskWakeUps = countWakeUps(this.asterisk.pid);
    const words = speech(WORDS);
    const specs = dids.map((did, i) => ({ did, from: `+4477009${tag + i}` }));
    // This process is the callers' ears: a stall here is heard as a pause in the greeting.
    const stalls = monitorEventLoopDelay({ resolution: 10 });
    stalls.enable();
    const batch = await placeCalls(this.asterisk.sipPort, specs, place);
    let sippCpu = 0;
    const sampler = setInterval(() => (sippCpu = Math.max(sippCpu, cpuSeconds(batch.pid))), 200);
    const heard = await Promise.all(
      batch.calls.map(async (c) => {
        // As a real caller: speak once the beep (a 1000 Hz tone) is heard, not in the first quiet
        // gap, which may be a pause between the greeting's sentences or audio held up by load
        // (issue 47: callers who spoke over the greeting were counted as lost messages). A
        // refused caller never hears anything: the wait ends with the call.
        // The beep is judged as the caller's audio arrives, not by a poll per caller (issue 61).
        const beepEndedAt = await Promise.race([c.media.beepEnded(), batch.done.then(() => undefined)]);
        if (beepEndedAt === undefined) return { heardGreeting: false, spoke: false };
        const spokeFrom = performance.now();
        const sentBefore = c.media.packetsOut;
        await c.media.say(words);
        const audio = `sent ${c.media.packetsOut - sentBefore} packets while speaking, to ${c.media.endpoints.sendsTo}; heard from ${c.media.endpoints.heardFrom.join(', ')}`;
        return { heardGreeting: true, spoke: true, spokeFrom, spokeUntil: performance.now(), beepEndedAt, audio };
      }),
    );
    const sipp = await batch.done;
    // Every caller's socket counts are final once its line has closed (SIPp's exit closes the rest).
    await waitUntil(() => {
      if (!batch.calls.every((c) => c.media.ended)) throw new Error('sound card lines still closing');
    }, 30_000, 50).catch(() => undefined);
    const wires = batch.calls.map((c) => wireOf(c.media));
    clearInterval(sampler);
    stalls.disable();
    const bench = process.cpuUsage(cpu0.bench);
    const cpu = { asterisk: cpuSeconds(this.asterisk.pid) - cpu0.asterisk, core: cpuSeconds(this.core.child.pid) - cpu0.core, sipp: sippCpu, bench: (bench.user + bench.system) / 1e6 };
    return { specs, sipp, heard, wires, cpu, asteriskWakeUps: asteriskWakeUps.stop(), callersLongestStallMs: stalls.max / 1e6 };
  }

  /**
   * Waits (bounded) for the answered calls' rows to be final, their jobs done and their
   * messages texted, then accounts for each call. The tables are read once per look, not per call.
   */
  async account(result: Awaited<ReturnType<RealNode['call']>>, waitMs = 180_000): Promise<CallAccount[]> {
    const { specs, sipp, heard } = result;
    const look = async () => {
      const { calls, jobs, notifications } = tablesOf(this.db.db);
      const rows = new Map((await this.db.db.select().from(calls)).map((r) => [`${r.toNumber} ${r.fromNumber}`, r]));
      const done = new Set((await this.db.db.select({ key: jobs.key, status: jobs.status }).from(jobs)).filter((j) => j.status === 'done').map((j) => j.key));
      const texts = new Map<number, number>();
      for (const t of await this.db.db.select({ callId: notifications.callId, channel: notifications.channel, kind: notifications.kind, status: notifications.status }).from(notifications)) {
        if (t.callId !== null && t.channel === 'sms' && t.kind === 'summary' && t.status === 'sent') texts.set(t.callId, (texts.get(t.callId) ?? 0) + 1);
      }
      return { row: (s: { did: string; from: string }) => rows.get(`${s.did} ${s.from}`), jobDone: (id: number) => done.has(postCallKey(id)), texts: (id: number) => texts.get(id) ?? 0 };
    };
    const answered = specs.filter((_, i) => sipp.signalling[i]?.final === 200);
    await waitUntil(async () => {
      const now = await look();
      const open = answered.filter((s) => {
        const r = now.row(s);
        return !(r?.endedAt && (r.status !== 'voicemail' || (now.jobDone(r.id) && now.texts(r.id) > 0)));
      });
      if (open.length) throw new Error(`${open.length} calls not settled yet`);
    }, waitMs, 1000).catch(() => undefined);
    const now = await look();
    return specs.map((s, i) => {
      const row = now.row(s);
      const signalling = sipp.signalling[i] ?? { final: undefined, inviteToFinalMs: undefined };
      const file = row?.recordingFile ? path.join(this.dataDir, 'recordings', row.recordingFile) : undefined;
      const storedSeconds = file && fs.existsSync(file) ? wavDurationOf(fs.readFileSync(file)) / 1000 : 0;
      const filed = !row ? 'no row' : !row.endedAt ? 'open' : row.status;
      const { heardGreeting, spoke, spokeFrom, spokeUntil, beepEndedAt, audio } = heard[i]!;
      const verdict: CallAccount['verdict'] =
        signalling.final === 503 ? 'refused (503)'
        : signalling.final !== 200 ? 'never answered'
        : spoke && !(storedSeconds > 0 && row?.status === 'voicemail') ? 'LOST MESSAGE'
        : !heardGreeting ? 'no greeting heard'
        : 'stored';
      return { did: s.did, from: s.from, signalling, heardGreeting, spoke, filed, storedSeconds, jobDone: row ? now.jobDone(row.id) : false, texts: row ? now.texts(row.id) : 0, spokeFrom, spokeUntil, beepEndedAt, audio, wire: result.wires[i]!, verdict };
    });
  }

  /**
   * One call's story at the ARI proxy, each line in seconds from its StasisStart, with the
   * moments the caller began and stopped speaking among them: where to look when a message
   * was lost (was the caller speaking before the recording began?).
   */
  story(a: CallAccount): string[] {
    const start = this.tap.log.find((e) => e.kind === 'event' && e.what === 'StasisStart' && e.detail === a.from);
    if (!start) return ['(never reached the core)'];
    const lines = this.tap.log.filter((e) => e.channel === start.channel).map((e) => ({ at: e.at, text: `${e.kind === 'request' ? '→' : '←'} ${e.what}${e.status ? ` ${e.status}` : ''}${e.detail ? ` (${e.detail})` : ''}` }));
    if (a.spokeFrom !== undefined) lines.push({ at: a.spokeFrom, text: '** caller starts speaking' }, { at: a.spokeUntil!, text: '** caller stops speaking' });
    if (a.beepEndedAt !== undefined) lines.push({ at: a.beepEndedAt, text: '** caller hears the beep end' });
    if (a.audio) lines.push({ at: a.spokeUntil! + 1e-6, text: `** caller's audio: ${a.audio}` });
    if (a.wire.heardFirstAt !== undefined) lines.push({ at: a.wire.heardFirstAt, text: '** caller hears its first RTP audio frame' }, { at: a.wire.heardLastAt!, text: '** caller hears its last RTP audio frame' });
    return lines.sort((x, y) => x.at - y.at).map((l) => `${((l.at - start.at) / 1000).toFixed(3).padStart(7)} s  ${l.text}`);
  }

  /** Keeps the core's and Asterisk's logs (they go with their folders at stop): where to look when a message was lost. */
  saveCoreLog(name: string): string {
    const dir = path.resolve(import.meta.dirname, '../../test-results/bench');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}-core.log`);
    fs.writeFileSync(file, this.core.output());
    fs.writeFileSync(path.join(dir, `${name}-asterisk.log`), this.asterisk.log);
    fs.writeFileSync(path.join(dir, `${name}-asterisk-rtp-learning.log`), this.asterisk.rtpLearningLog());
    return file;
  }

  async stop(): Promise<void> {
    this.core.child.kill('SIGTERM');
    await this.core.exited;
    await this.db.close();
    for (const close of this.closers) await close();
    await this.asterisk.destroy();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** One line per call that did not end as a stored message, and a count of each verdict. */
export function printAccounts(accounts: CallAccount[], log: (line: string) => void = console.log): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of accounts) counts[a.verdict] = (counts[a.verdict] ?? 0) + 1;
  log(`calls: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
  for (const a of accounts) {
    if (a.verdict === 'stored' && a.texts === 1) continue;
    const s = a.signalling;
    log(`  ${a.from} → ${a.did}: ${a.verdict}; SIP ${s.final ?? '-'} after ${s.inviteToFinalMs ?? '-'} ms, greeting ${a.heardGreeting ? 'heard' : 'not heard'}, ${a.spoke ? 'spoke' : 'silent'}, filed as ${a.filed}, ${a.storedSeconds.toFixed(1)} s stored, post-call job ${a.jobDone ? 'done' : 'not done'}, ${a.texts} text${a.texts === 1 ? '' : 's'} sent`);
    if (a.verdict !== 'refused (503)') log(`    on the wire: ${wireText(a.wire)}`);
  }
  return counts;
}

/** One caller's RTP as its socket saw it: where a silent caller's greeting went (issue 61). */
interface CallerWire {
  /** The caller's socket (SIPp's SDP offer names it) and Asterisk's port from its SDP answer. */
  localPort: number;
  sendsTo: string | undefined;
  heardFrom: string[];
  rtpIn: number;
  rtpFromOthers: number;
  rtcpIn: number;
  framesHeard: number;
  packetsOut: number;
  /** The kernel's drops on the caller's socket (its receive buffer full). */
  drops: number;
  /** When the first and last audio frames reached the caller (performance.now()). */
  heardFirstAt?: number;
  heardLastAt?: number;
}

function wireOf(m: CallerMedia): CallerWire {
  const { sendsTo, heardFrom } = m.endpoints;
  return { localPort: m.port, sendsTo, heardFrom, ...m.wire, framesHeard: m.heardFrames.length, packetsOut: m.packetsOut, heardFirstAt: m.heardFrames[0]?.at, heardLastAt: m.heardFrames.at(-1)?.at };
}

function wireText(w: CallerWire): string {
  return `caller 127.0.0.1:${w.localPort} sends to ${w.sendsTo ?? '(no answer)'}, sent ${w.packetsOut} RTP; received ${w.rtpIn} RTP (${w.rtpFromOthers} from another address; ${w.framesHeard} audio frames) from ${w.heardFrom.join(', ') || 'nobody'}, ${w.rtcpIn} RTCP; kernel drops ${w.drops}`;
}

/**
 * Asterisk's strict-RTP story for the RTP instance whose SDP address is the caller's port (its
 * verbose-4 lines: which source it learnt, and locked on): did it send the greeting to this caller?
 */
export function strictRtpStory(asteriskLog: string, callerPort: number): string[] {
  const lines = asteriskLog.split('\n');
  const start = lines.findIndex((l) => l.includes(`Strict RTP learning after remote address set to: 127.0.0.1:${callerPort}`));
  if (start < 0) return [`(Asterisk logged no strict-RTP learning for 127.0.0.1:${callerPort})`];
  const instance = /(0x[0-9a-f]+) -- /.exec(lines[start]!)?.[1];
  const out = [lines[start]!.trim()];
  for (const l of lines.slice(start + 1)) {
    if (!instance || !l.includes(`${instance} -- Strict RTP`)) continue;
    if (l.includes('learning after remote address set to')) break; // the instance's memory reused by a later call
    out.push(l.trim());
  }
  return out;
}
