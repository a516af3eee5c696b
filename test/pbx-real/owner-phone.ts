import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '../helpers/wait.js';
import { CallerMedia } from './caller-media.js';
import { freeSipPort } from './ports.js';
import { sippErrors } from './sipp.js';

// The owner's mobile as the trunk would reach it: one SIPp user agent server (Debian's
// sip-tester) that Asterisk's outbound calls land on. It runs for a whole test file and is
// started before Asterisk, so the trunk's qualify (OPTIONS) finds it reachable: PJSIP will not
// dial a contact it has marked unreachable. What the phone does is chosen by the last digit
// of the number dialled, so each test sets the owner's transfer number to the behaviour it
// wants. Answered calls carry their audio on a CallerMedia (hears the briefing, presses keys).

export type OwnerBehaviour = 'answers' | 'busy' | 'rings' | 'declines';
const DIGIT: Record<OwnerBehaviour, number> = { answers: 1, busy: 2, rings: 3, declines: 4 };

export interface OwnerCall {
  /** The number Asterisk dialled (Request-URI user part). */
  dialled: string;
  behaviour: OwnerBehaviour;
  /** Set for calls the phone answers. */
  media: CallerMedia;
  callId: string;
  /** performance.now() when the INVITE arrived (the owner's phone starts ringing). */
  invitedAt: number;
  /** The owner hangs up (BYE). */
  hangUp(): Promise<void>;
}

const OK_TO_LAST = `<![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>`;

const final = (code: string) => `<![CDATA[
      SIP/2.0 ${code}
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>`;

const scenario = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<!-- The owner's phone. [field0]: the RTP port of this call's media. Written by test/pbx-real/owner-phone.ts. -->
<scenario name="owner phone">
  <recv request="OPTIONS" optional="true" next="options"/>
  <recv request="INVITE">
    <action>
      <ereg regexp="^INVITE sip:([^@]*)@" search_in="msg" check_it="true" assign_to="uri,dialled"/>
      <ereg regexp="([0-9])@" search_in="msg" check_it="true" assign_to="d,digit"/>
      <ereg regexp="m=audio ([0-9]+)" search_in="body" check_it="true" assign_to="m,rport"/>
      <ereg regexp="c=IN IP4 ([0-9.]+)" search_in="body" check_it="true" assign_to="c,rhost"/>
      <ereg regexp=".*" search_in="hdr" header="From:" check_it="true" assign_to="inv_from"/>
      <ereg regexp="sip:[^>;]*" search_in="hdr" header="Contact:" check_it="true" assign_to="inv_contact"/>
      <ereg regexp=".*" search_in="hdr" header="CSeq:" check_it="true" assign_to="inv_cseq"/>
      <todouble assign_to="n" variable="digit"/>
      <test assign_to="busy" variable="n" compare="equal" value="2"/>
      <test assign_to="rings" variable="n" compare="equal" value="3"/>
      <test assign_to="declines" variable="n" compare="equal" value="4"/>
      <exec command="echo '[call_id] [field0] [$rhost] [$rport] [$dialled] ([$uri] [$d] [$m] [$c])' > invite-[call_number].txt"/>
    </action>
  </recv>
  <send>
    <![CDATA[
      SIP/2.0 100 Trying
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Content-Length: 0
    ]]>
  </send>
  <nop test="busy" next="busy"/>
  <nop test="declines" next="declines"/>
  <send>
    <![CDATA[
      SIP/2.0 180 Ringing
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:owner@[local_ip]:[local_port]>
      Content-Length: 0
    ]]>
  </send>
  <nop test="rings" next="rings"/>

  <send retrans="500">
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:owner@[local_ip]:[local_port]>
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=owner 53655765 2353687637 IN IP4 [local_ip]
      s=-
      c=IN IP4 [local_ip]
      t=0 0
      m=audio [field0] RTP/AVP 0 101
      a=rtpmap:0 PCMU/8000
      a=rtpmap:101 telephone-event/8000
      a=fmtp:101 0-15
      a=ptime:20
      a=sendrecv
    ]]>
  </send>
  <recv request="ACK"/>
  <recv request="NOTIFY" optional="true" next="owner_hangs_up"/>
  <recv request="BYE"/>
  <send next="end">
${OK_TO_LAST}
  </send>

  <label id="owner_hangs_up"/>
  <send>
${OK_TO_LAST}
  </send>
  <send retrans="500">
    <![CDATA[
      BYE [$inv_contact] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: <sip:owner@[local_ip]:[local_port]>;tag=[pid]SIPpTag01[call_number]
      To: [$inv_from]
      Call-ID: [call_id]
      CSeq: 2 BYE
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <recv response="200" next="end"/>

  <label id="rings"/>
  <recv request="CANCEL">
    <action>
      <exec command="echo cancelled > cancel-[call_number].txt"/>
    </action>
  </recv>
  <send>
${OK_TO_LAST}
  </send>
  <send>
    <![CDATA[
      SIP/2.0 487 Request Terminated
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpTag01[call_number]
      [last_Call-ID:]
      CSeq: [$inv_cseq]
      Content-Length: 0
    ]]>
  </send>
  <recv request="ACK" next="end"/>

  <label id="busy"/>
  <send>
${final('486 Busy Here')}
  </send>
  <recv request="ACK" next="end"/>

  <label id="declines"/>
  <send>
${final('603 Decline')}
  </send>
  <recv request="ACK" next="end"/>

  <label id="options"/>
  <send>
${OK_TO_LAST}
  </send>
  <label id="end"/>
</scenario>
`;

const POOL = 64;

export class OwnerPhone {
  private readonly consumed = new Set<string>();
  private seq = 0;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly medias: Map<number, CallerMedia>,
    private readonly trigger: dgram.Socket,
    private readonly output: () => string,
  ) {}

  static async start(): Promise<OwnerPhone> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'owner-phone-'));
    const medias = new Map<number, CallerMedia>();
    for (let i = 0; i < POOL; i++) {
      const m = await CallerMedia.open();
      medias.set(m.port, m);
    }
    fs.writeFileSync(path.join(dir, 'owner.xml'), scenario);
    fs.writeFileSync(path.join(dir, 'ports.csv'), ['SEQUENTIAL', ...medias.keys()].join('\n') + '\n');
    const port = await freeSipPort();
    const child = spawn(
      'sipp',
      ['-sf', 'owner.xml', '-inf', 'ports.csv', '-i', '127.0.0.1', '-p', String(port), '-nostdin', '-trace_err', '-error_file', 'errors.log', '-trace_msg', '-message_file', 'messages.log', '-max_recv_loops', '100000'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout!.on('data', (d) => (out = (out + d).slice(-5000)));
    child.stderr!.on('data', (d) => (out = (out + d).slice(-5000)));
    const trigger = dgram.createSocket('udp4');
    await new Promise<void>((r) => trigger.bind(0, '127.0.0.1', r));
    const phone = new OwnerPhone(port, dir, child, medias, trigger, () => out);
    // Up once it answers an OPTIONS, as Asterisk's qualify will ask.
    await waitUntil(async () => {
      if (child.exitCode !== null) throw new Error(`SIPp (owner phone) exited: ${out}`);
      if (!(await phone.answersOptions())) throw new Error('owner phone not answering yet');
    }, 15_000, 100);
    return phone;
  }

  /** A number whose calls the phone handles as `behaviour` (unique per call of this method). */
  number(behaviour: OwnerBehaviour): string {
    return `+4477009${String(++this.seq % 1000).padStart(3, '0')}0${DIGIT[behaviour]}`;
  }

  /** The next call to `dialled` that reached the phone. */
  async nextCall(dialled: string, timeoutMs = 30_000): Promise<OwnerCall> {
    return waitUntil(() => {
      for (const f of fs.readdirSync(this.dir)) {
        if (!/^invite-\d+\.txt$/.test(f) || this.consumed.has(f)) continue;
        const line = fs.readFileSync(path.join(this.dir, f), 'utf8').trim();
        if (!line.endsWith(')')) continue; // still being written
        const [callId, rtpPort, rhost, rport, uri] = line.split(' ');
        if (uri !== dialled) continue;
        this.consumed.add(f);
        const media = this.medias.get(Number(rtpPort))!;
        const behaviour = (Object.keys(DIGIT) as OwnerBehaviour[]).find((b) => uri.endsWith(String(DIGIT[b])))!;
        if (behaviour === 'answers') media.setRemote(rhost!, Number(rport));
        const invitedAt = fs.statSync(path.join(this.dir, f)).mtimeMs - Date.now() + performance.now();
        return { dialled: uri, behaviour, media, callId: callId!, invitedAt, hangUp: () => this.notify(callId!) };
      }
      if (this.child.exitCode !== null) throw new Error(`SIPp (owner phone) exited: ${this.output()}`);
      throw new Error(`no call to ${dialled} reached the owner's phone`);
    }, timeoutMs, 20);
  }

  /**
   * The headers of the INVITE that rang `dialled` (the first, as SIPp's message log has it):
   * each header's values in order, by lower-case name. Waits until the log holds it.
   */
  async inviteHeaders(dialled: string, timeoutMs = 30_000): Promise<Map<string, string[]>> {
    return waitUntil(() => {
      for (const { received, block } of this.messages()) {
        const start = block.indexOf(`INVITE sip:${dialled}@`);
        if (!received || start < 0) continue;
        const head = block.slice(start).split(/\r?\n\r?\n/)[0]!;
        const headers = new Map<string, string[]>();
        for (const line of head.split(/\r?\n/).slice(1)) {
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const name = line.slice(0, colon).trim().toLowerCase();
          headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
        }
        return headers;
      }
      throw new Error(`no INVITE to ${dialled} in the owner phone's message log yet`);
    }, timeoutMs, 50);
  }

  /**
   * When (performance.now()) the phone received the INVITE of call `callId` and sent its 200 OK,
   * as SIPp's message log stamps them on receipt and sending (to the microsecond): finer than
   * OwnerCall.invitedAt, which is a file a shell writes. Waits until the log holds both.
   */
  async signalling(callId: string, timeoutMs = 30_000): Promise<{ invitedAt: number; answeredAt: number }> {
    return waitUntil(() => {
      const ofCall = this.messages().filter((m) => m.block.split(/\r?\n/).includes(`Call-ID: ${callId}`) && /^CSeq: \d+ INVITE\r?$/m.test(m.block));
      const invite = ofCall.find((m) => m.received && /^INVITE /m.test(m.block));
      const ok = ofCall.find((m) => !m.received && /^SIP\/2\.0 200 OK/m.test(m.block));
      if (!invite || !ok) throw new Error(`the phone's log has no INVITE and 200 OK of call ${callId} yet`);
      const local = (wallMs: number) => wallMs - Date.now() + performance.now();
      return { invitedAt: local(invite.at), answeredAt: local(ok.at) };
    }, timeoutMs, 50);
  }

  /**
   * SIPp's message log: each message with its stamp (ms since the epoch), and whether the phone
   * received or sent it. SIPp opens each with a line of dashes and its local time.
   */
  private messages(): Array<{ at: number; received: boolean; block: string }> {
    const file = path.join(this.dir, 'messages.log');
    const parts = (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').split(/^-{20,} (\S+) (\d+:\d+:\d+)(\.\d+)?\n/m);
    const out: Array<{ at: number; received: boolean; block: string }> = [];
    for (let i = 1; i + 3 < parts.length; i += 4) {
      const block = parts[i + 3]!;
      const at = new Date(`${parts[i]}T${parts[i + 1]}`).getTime() + Number(parts[i + 2] ?? 0) * 1000;
      out.push({ at, received: /^\S+ message received/.test(block), block });
    }
    return out;
  }

  /** Whether any call reached the phone for `dialled` (for "the owner's phone never rang"). */
  wasCalled(dialled: string): boolean {
    return fs.readdirSync(this.dir).some((f) => /^invite-\d+\.txt$/.test(f) && fs.readFileSync(path.join(this.dir, f), 'utf8').split(" ")[4] === dialled);
  }

  /** How many INVITEs for `dialled` reached the phone (a call-back's tries, each its own INVITE). */
  timesCalled(dialled: string): number {
    return fs.readdirSync(this.dir).filter((f) => /^invite-\d+\.txt$/.test(f) && fs.readFileSync(path.join(this.dir, f), 'utf8').split(' ')[4] === dialled).length;
  }

  /** Whether a call to `dialled` stopped ringing because the caller's side CANCELled it (a phone that rings until told). */
  wasCancelled(dialled: string): boolean {
    return this.cancelledAt(dialled) !== undefined;
  }

  /** When (performance.now()) the call to `dialled` was CANCELled; undefined while it was not. */
  cancelledAt(dialled: string): number | undefined {
    for (const f of fs.readdirSync(this.dir)) {
      const n = /^invite-(\d+)\.txt$/.exec(f)?.[1];
      if (n === undefined || fs.readFileSync(path.join(this.dir, f), 'utf8').split(' ')[4] !== dialled) continue;
      const cancel = path.join(this.dir, `cancel-${n}.txt`);
      if (fs.existsSync(cancel)) return fs.statSync(cancel).mtimeMs - Date.now() + performance.now();
    }
    return undefined;
  }

  /** What went wrong in the phone's calls (SIPp's error file, without its watchdog's lateness warnings). */
  errors(): string {
    const f = path.join(this.dir, 'errors.log');
    return fs.existsSync(f) ? sippErrors(fs.readFileSync(f, 'utf8')) : '';
  }

  async stop(): Promise<void> {
    this.child.kill('SIGKILL');
    this.trigger.close();
    for (const m of this.medias.values()) m.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private notify(callId: string): Promise<void> {
    const { port } = this.trigger.address();
    const msg = sipRequest('NOTIFY', this.port, port, callId, ['Event: hang-up']);
    return new Promise((resolve, reject) => this.trigger.send(msg, this.port, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
  }

  private answersOptions(): Promise<boolean> {
    const probe = dgram.createSocket('udp4');
    return new Promise((resolve) => {
      const done = (ok: boolean) => (clearTimeout(timer), probe.close(), resolve(ok));
      const timer = setTimeout(() => done(false), 1000);
      probe.on('message', (m) => done(String(m).startsWith('SIP/2.0 200')));
      probe.bind(0, '127.0.0.1', () => {
        const msg = sipRequest('OPTIONS', this.port, probe.address().port, `probe-${crypto.randomBytes(4).toString('hex')}`, []);
        probe.send(msg, this.port, '127.0.0.1');
      });
    });
  }
}

function sipRequest(method: string, toPort: number, fromPort: number, callId: string, extra: string[]): string {
  return [
    `${method} sip:owner@127.0.0.1:${toPort} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:${fromPort};branch=z9hG4bK${crypto.randomBytes(6).toString('hex')}`,
    `From: <sip:test-harness@127.0.0.1:${fromPort}>;tag=${crypto.randomBytes(4).toString('hex')}`,
    `To: <sip:owner@127.0.0.1:${toPort}>`,
    `Call-ID: ${callId}`,
    `CSeq: 1 ${method}`,
    ...extra,
    'Max-Forwards: 70',
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
}
