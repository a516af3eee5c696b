import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freeSipPort } from '../pbx-real/ports.js';

// A carrier's registrar played by SIPp: it challenges the first REGISTER (401, digest), checks
// the answer against the account's password, accepts it, and logs what it saw.

const scenario = (realm: string) => `<?xml version="1.0" encoding="ISO-8859-1" ?>
<!DOCTYPE scenario SYSTEM "sipp.dtd">
<!-- Written by test/cluster/sipp-registrar.ts: [field0] the account, [field1] its password. -->
<scenario name="registrar">
  <recv request="REGISTER" crlf="true"/>
  <send>
    <![CDATA[
      SIP/2.0 401 Unauthorized
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpReg[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      WWW-Authenticate: Digest realm="${realm}", nonce="5b2f4c1e9d8a7b6c5d4e3f2a1b0c9d8e", algorithm=MD5
      Content-Length: 0
    ]]>
  </send>
  <recv request="REGISTER" crlf="true">
    <action>
      <verifyauth assign_to="authorised" username="[field0]" password="[field1]"/>
      <ereg regexp="Via: SIP/2.0/UDP ([^;]+)" search_in="msg" check_it="true" assign_to="via,sender"/>
      <ereg regexp="Contact: &lt;([^&gt;]+)&gt;" search_in="msg" check_it="true" assign_to="contact,contact_uri"/>
    </action>
  </recv>
  <nop>
    <!-- Every variable is referenced once at least (SIPp refuses a scenario otherwise): the whole matches too. -->
    <action><log message="registered [$sender] [$contact_uri] [$authorised] ([$via] [$contact])"/></action>
  </nop>
  <send>
    <![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:];tag=[pid]SIPpReg[call_number]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <[$contact_uri]>;expires=300
      Content-Length: 0
    ]]>
  </send>
</scenario>
`;

interface Registration {
  /** The address:port the REGISTER came from (its Via). */
  sender: string;
  contact: string;
  /** The digest answer matched the account's password. */
  authorised: boolean;
}

export interface SippRegistrar {
  port: number;
  /** Resolves with the one registration once SIPp has accepted it. */
  registered: Promise<Registration>;
  stop(): void;
}

export async function startRegistrar(account: { username: string; password: string }): Promise<SippRegistrar> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sipp-registrar-'));
  fs.writeFileSync(path.join(dir, 'registrar.xml'), scenario('carrier.example'));
  fs.writeFileSync(path.join(dir, 'account.csv'), `SEQUENTIAL\n${account.username};${account.password}\n`);
  const port = await freeSipPort();
  const child = spawn('sipp', ['-sf', 'registrar.xml', '-inf', 'account.csv', '-i', '127.0.0.1', '-p', String(port), '-m', '1', '-nostdin', '-trace_logs', '-log_file', 'registrar.log', '-trace_err', '-error_file', 'errors.log', '-timeout', '600s'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const registered = new Promise<Registration>((resolve, reject) => {
    child.once('exit', (code) => {
      const read = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), 'utf8') : '');
      const m = /registered (\S+) (\S+) (\S+)/.exec(read('registrar.log'));
      fs.rmSync(dir, { recursive: true, force: true });
      if (code !== 0 || !m) reject(new Error(`the SIPp registrar ended (${code}) without a registration:\n${read('errors.log')}${out.slice(-2000)}`));
      else resolve({ sender: m[1]!, contact: m[2]!, authorised: m[3] === 'true' });
    });
  });
  // Awaited by the test later; a failure before then is not an unhandled rejection.
  registered.catch(() => undefined);
  return { port, registered, stop: () => child.kill('SIGKILL') };
}
