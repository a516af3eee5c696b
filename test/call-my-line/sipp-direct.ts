import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freeSipPort } from '../pbx-real/ports.js';

// SIPp straight to Asterisk's UDP 5060 with a test call's digest credentials, past the core's
// proxy: what an owner who read the credentials out of the console could do. One INVITE per
// target (the Request-URI's user part, sent exactly as given: escapes and all), answered by
// SIPp's own digest; the scenario expects a refusal, and the test reads the final status of
// each call from SIPp's message trace.

const scenario = `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<!-- [field0]: the Request-URI's user part, [field1] the endpoint (-au/-ap: its digest credentials). Written by test/call-my-line/sipp-direct.ts. -->
<scenario name="Call my line credentials on 5060">
  <send retrans="500">
    <![CDATA[
      INVITE sip:[field0]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: <sip:[field1]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[field0]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 INVITE
      Contact: <sip:[field1]@[local_ip]:[local_port]>
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=caller 53655765 2353687637 IN IP4 [local_ip]
      s=-
      c=IN IP4 [local_ip]
      t=0 0
      m=audio [auto_media_port] RTP/AVP 0
      a=rtpmap:0 PCMU/8000
    ]]>
  </send>
  <recv response="100" optional="true"/>
  <recv response="401" auth="true"/>
  <send>
    <![CDATA[
      ACK sip:[field0]@[remote_ip]:[remote_port] SIP/2.0
      [last_Via:]
      From: <sip:[field1]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      [last_To:]
      Call-ID: [call_id]
      CSeq: 1 ACK
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
  <send retrans="500">
    <![CDATA[
      INVITE sip:[field0]@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
      From: <sip:[field1]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:[field0]@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 2 INVITE
      Contact: <sip:[field1]@[local_ip]:[local_port]>
      [authentication]
      Max-Forwards: 70
      Content-Type: application/sdp
      Content-Length: [len]

      v=0
      o=caller 53655765 2353687637 IN IP4 [local_ip]
      s=-
      c=IN IP4 [local_ip]
      t=0 0
      m=audio [auto_media_port] RTP/AVP 0
      a=rtpmap:0 PCMU/8000
    ]]>
  </send>
  <recv response="100" optional="true"/>
  <recv response="403"/>
  <send>
    <![CDATA[
      ACK sip:[field0]@[remote_ip]:[remote_port] SIP/2.0
      [last_Via:]
      From: <sip:[field1]@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      [last_To:]
      Call-ID: [call_id]
      CSeq: 2 ACK
      Max-Forwards: 70
      Content-Length: 0
    ]]>
  </send>
</scenario>
`;

export interface DirectInvites {
  /** 0 when every INVITE was refused with 403 after its digest. */
  exitCode: number | null;
  /** The final status of each call's authenticated INVITE (CSeq 2), in the order of the targets. */
  finals: Array<number | undefined>;
  messages: string;
}

/** One authenticated INVITE per target to Asterisk's SIP port on loopback, one after another. */
export async function directInvites(sipPort: number, creds: { user: string; password: string }, targets: string[]): Promise<DirectInvites> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sipp-direct-'));
  try {
    fs.writeFileSync(path.join(dir, 'direct.xml'), scenario);
    fs.writeFileSync(path.join(dir, 'targets.csv'), ['SEQUENTIAL', ...targets.map((t) => `${t};${creds.user}`)].join('\n') + '\n');
    const localPort = await freeSipPort();
    const child = spawn(
      'sipp',
      [`127.0.0.1:${sipPort}`, '-sf', 'direct.xml', '-inf', 'targets.csv', '-i', '127.0.0.1', '-p', String(localPort), '-m', String(targets.length), '-l', '1', '-au', creds.user, '-ap', creds.password, '-nostdin', '-trace_msg', '-message_file', 'messages.log', '-timeout', '60s', '-recv_timeout', '20s'],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const messages = fs.existsSync(path.join(dir, 'messages.log')) ? fs.readFileSync(path.join(dir, 'messages.log'), 'utf8') : stderr;
    return { exitCode, finals: finalsOf(messages, targets.length), messages };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each call's final answer to its CSeq 2 INVITE, from SIPp's trace of received messages. */
function finalsOf(messages: string, calls: number): Array<number | undefined> {
  const byCall = new Map<string, number>();
  for (const m of messages.matchAll(/^SIP\/2\.0 ([2-6]\d\d) [^\n]*\n([\s\S]*?)(?=\n\n|\r\n\r\n)/gm)) {
    const head = m[2]!;
    if (!/^CSeq:\s*2 INVITE/im.test(head)) continue;
    const callId = /^Call-ID:\s*(\S+)/im.exec(head)?.[1];
    if (callId && !byCall.has(callId)) byCall.set(callId, Number(m[1]));
  }
  const finals = [...byCall.values()];
  return Array.from({ length: calls }, (_, i) => finals[i]);
}
