import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CallerMedia } from './caller-media.js';
import { freeSipPort } from './ports.js';

// Real SIP callers: SIPp (Debian's sip-tester) sends the INVITE, ACK and BYE, each call's SDP
// naming a CallerMedia socket, which carries the call's audio and RFC 4733 digits. The test
// decides when a caller hangs up: it sends that call a NOTIFY, and the scenario answers with
// the BYE (SIPp cannot be told "hang up now" any other way). A call the far end hangs up
// ends with Asterisk's BYE, answered 200 OK. Requests inside the call go to the answerer's
// Contact through the route it recorded, so the same callers work through Kamailio.

export interface CallSpec {
  did: string;
  /** Caller ID user part (From). */
  from?: string;
  /** A call the carrier forwarded: its Diversion header (RFC 5806), naming the diverting number and the reason. */
  diversion?: { from: string; reason: string };
  /** A caller who withheld their number the SIP way: From anonymous, this number in P-Asserted-Identity with Privacy: id (RFC 3325). */
  privateNumber?: string;
}

export interface SipCall {
  readonly spec: CallSpec;
  readonly media: CallerMedia;
  readonly callId: string;
  /** performance.now() when the answer (200 OK) reached this caller's SIPp: its answer file's time, written as it arrives. Undefined until then. */
  readonly answeredAt: number | undefined;
  /** Asks the caller to hang up (BYE); resolves once SIPp has been told. */
  hangUp(): Promise<void>;
}

/** What one caller's SIPp saw: the final answer to its INVITE and how long it took. */
export interface CallSignalling {
  /** 200 (answered) or 503 (refused before answering); undefined: neither arrived. */
  final: 200 | 403 | 503 | undefined;
  /** INVITE sent → that final response, on SIPp's clock. */
  inviteToFinalMs: number | undefined;
}

interface SippResult {
  exitCode: number | null;
  errors: string;
  rttMs: number[];
  /** Per call, in the order of the specs. */
  signalling: CallSignalling[];
}

export interface SippBatch {
  calls: SipCall[];
  /** Resolves when SIPp exits: 0 when every call ran its scenario to the end (refused ones too). */
  done: Promise<SippResult>;
  /** SIPp's process id (the load generator's own CPU is read from /proc by the bench). */
  pid: number;
  kill(): void;
}

export interface PlaceOptions {
  keepFiles?: boolean;
  /** Calls started per second; default: all at once. */
  ratePerSecond?: number;
  /** The loopback address the callers' SIP comes from (a carrier apart from a scanner: 127.0.0.2); default 127.0.0.1. */
  localAddress?: string;
}

/** The 200 OK to the request just received (Asterisk's BYE, or the harness's NOTIFY). */
const OK_TO_LAST_REQUEST = `<![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>`;

const scenario = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<!-- A UK caller on a DID trunk: [field0] the DID, [field1] the caller's RTP port,
     [field2] the caller ID. The SDP names 127.0.0.1, where the callers' media sockets are,
     whichever loopback address the SIP comes from. Written by test/pbx-real/sipp.ts. -->
<scenario name="callkeeper caller">
  <nop><action><log message="[call_number] invite [clock_tick]"/></action></nop>
  <send retrans="500" start_rtd="answer">
    <![CDATA[
      INVITE sip:[field0]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: "Test Caller" <sip:[field2]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[field0]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 INVITE
      Contact: <sip:[field2]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=caller 53655765 2353687637 IN IP4 [local_ip]
      s=-
      c=IN IP4 127.0.0.1
      t=0 0
      m=audio [field1] RTP/AVP 0 101
      a=rtpmap:0 PCMU/8000
      a=rtpmap:101 telephone-event/8000
      a=fmtp:101 0-15
      a=ptime:20
      a=sendrecv
    ]]>
  </send>

  <recv response="100" optional="true"/>
  <recv response="180" optional="true"/>
  <recv response="183" optional="true"/>
  <recv response="503" optional="true" next="refused">
    <action><log message="[call_number] final 503 [clock_tick]"/></action>
  </recv>
  <recv response="403" optional="true" next="refused">
    <action><log message="[call_number] final 403 [clock_tick]"/></action>
  </recv>
  <recv response="200" rtd="answer" crlf="true" rrs="true">
    <action>
      <log message="[call_number] final 200 [clock_tick]"/>
      <ereg regexp="m=audio ([0-9]+)" search_in="body" check_it="true" assign_to="media,remote_port"/>
      <ereg regexp="c=IN IP4 ([0-9.]+)" search_in="body" check_it="true" assign_to="conn,remote_host"/>
      <exec command="echo '[$remote_host] [$remote_port] ([$conn], [$media])' > answer-[call_number].sdp"/>
    </action>
  </recv>

  <send>
    <![CDATA[
      ACK [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [routes]
      From: "Test Caller" <sip:[field2]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[field0]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: 1 ACK
      Contact: <sip:[field2]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>

  <recv request="NOTIFY" optional="true" next="caller_hangs_up"/>
  <!-- The far end hung up: the caller's phone stops its audio (see ended-N in sipp.ts). -->
  <recv request="BYE">
    <action><exec command="echo > ended-[call_number]"/></action>
  </recv>
  <send next="end">
${OK_TO_LAST_REQUEST}
  </send>

  <!-- Refused before answering (the node is full: 503; a screened nuisance caller: 403): the ACK of a final error response is
       part of the INVITE's transaction, so it carries the INVITE's branch (ten messages back). -->
  <label id="refused"/>
  <send next="end">
    <![CDATA[
      ACK sip:[field0]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch-10]
      From: "Test Caller" <sip:[field2]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[field0]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: 1 ACK
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>

  <label id="caller_hangs_up"/>
  <send>
${OK_TO_LAST_REQUEST}
  </send>
  <send retrans="500">
    <![CDATA[
      BYE [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      [routes]
      From: "Test Caller" <sip:[field2]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[field0]@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: 2 BYE
      Contact: <sip:[field2]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <recv response="200" crlf="true"/>

  <label id="end"/>
</scenario>
`;

/** The scenario with a Diversion header on the INVITE ([field3] the diverting number, [field4] the reason). */
const forwardedScenario = scenario.replace(
  'Max-Forwards: 70\n      Content-Type: application/sdp',
  'Max-Forwards: 70\n      Diversion: <sip:[field3]@carrier.example>;reason=[field4];counter=1\n      Content-Type: application/sdp',
);
if (forwardedScenario === scenario) throw new Error('sipp.ts: the INVITE no longer has the line the Diversion header goes after');

/** The scenario of a caller whose number the carrier asserts but marks private ([field3] the number). */
const privateScenario = scenario.replace(
  'Max-Forwards: 70\n      Content-Type: application/sdp',
  'Max-Forwards: 70\n      P-Asserted-Identity: <sip:[field3]@carrier.example>\n      Privacy: id\n      Content-Type: application/sdp',
);

/**
 * Places `specs.length` calls at once through one SIPp process (one call per spec, all
 * started together). Asterisk is at 127.0.0.1:`sipPort`.
 */
export async function placeCalls(sipPort: number, specs: CallSpec[], opts: PlaceOptions = {}): Promise<SippBatch> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sipp-'));
  const medias = await Promise.all(specs.map(() => CallerMedia.open()));
  const forwarded = specs.some((s) => s.diversion);
  const hidden = specs.some((s) => s.privateNumber);
  if (forwarded && !specs.every((s) => s.diversion)) throw new Error('one batch places forwarded calls or direct ones, not both');
  if (hidden && (forwarded || !specs.every((s) => s.privateNumber))) throw new Error('one batch places private-number calls only');
  fs.writeFileSync(path.join(dir, 'caller.xml'), forwarded ? forwardedScenario : hidden ? privateScenario : scenario);
  fs.writeFileSync(
    path.join(dir, 'calls.csv'),
    ['SEQUENTIAL', ...specs.map((s, i) => [s.did, medias[i]!.port, s.from ?? '+447700900555', ...(s.diversion ? [s.diversion.from, s.diversion.reason] : []), ...(s.privateNumber ? [s.privateNumber] : [])].join(';'))].join('\n') + '\n',
  );
  const localPort = await freeSipPort();
  const local = opts.localAddress ?? '127.0.0.1';
  const n = specs.length;
  const child: ChildProcess = spawn(
    'sipp',
    [
      `127.0.0.1:${sipPort}`,
      '-sf', 'caller.xml',
      '-inf', 'calls.csv',
      '-i', local,
      '-p', String(localPort),
      '-m', String(n),
      '-l', String(n),
      // SIPp's rate is calls per period: a period of 100 s keeps fractional rates exact.
      ...(opts.ratePerSecond ? ['-r', String(Math.max(1, Math.round(opts.ratePerSecond * 100))), '-rp', '100000'] : ['-r', String(Math.max(n, 1)), '-rp', '1000']),
      '-nostdin',
      '-trace_err', '-error_file', 'errors.log',
      '-trace_rtt', '-rtt_freq', '1',
      '-trace_logs', '-log_file', 'calls.log',
      '-timeout', '900s',
      '-max_recv_loops', '100000',
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const pid = child.pid!;
  const trigger = dgram.createSocket('udp4');
  await new Promise<void>((r) => trigger.bind(0, '127.0.0.1', r));
  const done = new Promise<SippResult>((resolve) => {
    child.once('exit', (code) => {
      trigger.close();
      for (const m of medias) m.close();
      const read = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : '');
      const rttFile = fs.readdirSync(dir).find((f) => f.endsWith('_rtt.csv'));
      const rttMs = rttFile ? parseRtt(read(rttFile)) : [];
      const errors = sippErrors(read('errors.log')) + (code === 0 ? '' : `\n${out.slice(-3000)}`);
      const signalling = parseCallLog(read('calls.log'), n);
      if (!opts.keepFiles) fs.rmSync(dir, { recursive: true, force: true });
      resolve({ exitCode: code, errors, rttMs, signalling });
    });
  });
  // Like a phone, each caller sends its audio from the moment the call is answered, to the
  // address in Asterisk's SDP answer (SIPp writes it out; see the scenario's 200 OK), and stops
  // when the far end hangs up (ended-N). A caller that went on sending after its call ended
  // kept streaming to a port Asterisk gives the next caller, and Asterisk's strict RTP learnt
  // that stream instead of the new caller's, who then heard nothing (issue 61).
  const seen = new Set<string>();
  const answeredAt: Array<number | undefined> = [];
  const look = (name: string) => {
    if (seen.has(name)) return;
    const answer = /^answer-(\d+)\.sdp$/.exec(name);
    const ended = /^ended-(\d+)$/.exec(name);
    const index = Number((answer ?? ended)?.[1]) - 1;
    const media = medias[index];
    if (!media) return;
    if (ended) {
      seen.add(name);
      media.close();
      return;
    }
    let text = '';
    let written = 0;
    try {
      text = fs.readFileSync(path.join(dir, name), 'utf8');
      written = fs.statSync(path.join(dir, name)).mtimeMs;
    } catch {
      return;
    }
    const [host, port] = text.trim().split(' ');
    if (!host || !port) return; // the shell has created the file but not written it yet: its change event follows
    seen.add(name);
    // The file's own time, not this moment: a busy test process sees the file late.
    answeredAt[index] = written - Date.now() + performance.now();
    media.setRemote(host, Number(port));
  };
  // The folder's own events (inotify), not a look at every caller's file every 10 ms: that cost
  // this process about half a core at 10 calls/s with 3,000 callers waiting. The slow sweep
  // catches an event the kernel's queue may have dropped.
  const watcher = fs.watch(dir, (_, name) => name && look(name));
  const sweep = setInterval(() => {
    for (const name of fs.readdirSync(dir)) look(name);
  }, 1000);
  void done.then(() => {
    watcher.close();
    clearInterval(sweep);
  });
  const calls: SipCall[] = specs.map((spec, i) => {
    // SIPp's default Call-ID is "<call number>-<pid>@<local ip>"; call numbers follow the CSV lines.
    const callId = `${i + 1}-${pid}@${local}`;
    return {
      spec,
      media: medias[i]!,
      callId,
      get answeredAt() {
        return answeredAt[i];
      },
      // The caller hangs up: its phone stops sending as SIPp sends the BYE.
      hangUp: () => sendNotify(trigger, local, localPort, callId).finally(() => medias[i]!.close()),
    };
  });
  return { calls, done, pid, kill: () => child.kill('SIGKILL') };
}

/** One call: the batch's only call, and the batch's end. */
/**
 * What SIPp's error file says went wrong in the calls, without its watchdog's overload
 * warnings: those say SIPp's own process ran late on a loaded machine ("the minor watchdog
 * timer 500ms has been tripped"), not that a message was missing or unexpected.
 */
export function sippErrors(errorFile: string): string {
  const lines = errorFile.split('\n').filter((l) => l.trim() && !/Overload warning: the (minor|major) watchdog timer/.test(l));
  return lines.every((l) => /^The following events occurred:\s*$/.test(l)) ? '' : lines.join('\n');
}

export async function placeCall(sipPort: number, spec: CallSpec): Promise<SipCall & { done: SippBatch['done']; kill(): void }> {
  const batch = await placeCalls(sipPort, [spec]);
  return Object.assign(batch.calls[0]!, { done: batch.done, kill: batch.kill });
}

function sendNotify(socket: dgram.Socket, sippAddress: string, sippPort: number, callId: string): Promise<void> {
  const { port } = socket.address();
  const msg = [
    `NOTIFY sip:caller@${sippAddress}:${sippPort} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK${crypto.randomBytes(6).toString('hex')}`,
    `From: <sip:test-harness@127.0.0.1:${port}>;tag=${crypto.randomBytes(4).toString('hex')}`,
    `To: <sip:caller@${sippAddress}:${sippPort}>`,
    `Call-ID: ${callId}`,
    'CSeq: 1 NOTIFY',
    'Event: hang-up',
    'Max-Forwards: 70',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => socket.send(msg, sippPort, sippAddress, (err) => (err ? reject(err) : resolve())));
}

/** The scenario's log lines, "<call number> invite <tick>" and "<call number> final <code> <tick>", per call. */
function parseCallLog(log: string, n: number): CallSignalling[] {
  const invited = new Map<number, number>();
  const out: CallSignalling[] = Array.from({ length: n }, () => ({ final: undefined, inviteToFinalMs: undefined }));
  for (const line of log.split('\n')) {
    const f = line.trim().split(/\s+/);
    const call = Number(f[0]);
    if (f[1] === 'invite') invited.set(call, Number(f[2]));
    else if (f[1] === 'final' && out[call - 1]) {
      const sent = invited.get(call);
      out[call - 1] = { final: f[2] === '503' ? 503 : f[2] === '403' ? 403 : 200, inviteToFinalMs: sent === undefined ? undefined : Number(f[3]) - sent };
    }
  }
  return out;
}

/** SIPp's -trace_rtt file: one line per call with the "answer" response time (ms). */
function parseRtt(csv: string): number[] {
  const lines = csv.trim().split('\n');
  const header = lines.shift()?.split(';') ?? [];
  const col = header.findIndex((h) => /answer/i.test(h));
  return lines.map((l) => Number(l.split(';')[col >= 0 ? col : 1])).filter((v) => Number.isFinite(v));
}
