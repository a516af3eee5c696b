import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeWav } from './audio.js';
import { freeSipPort } from './ports.js';

// A caller on SIP over TLS with SRTP (SDES, mandatory): Debian's baresip, which SIPp (built
// without TLS in Debian) cannot be. It speaks a WAV (8 kHz, what it says after answer) and
// writes what it hears to heard.wav; the far end hangs up.

export interface BaresipCall {
  /** What baresip printed so far (the transport, the SRTP suite, the call's progress). */
  output(): string;
  stop(): void;
}

export async function baresipCall(target: { host: string; port: number; did: string }, says: Int16Array): Promise<BaresipCall> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baresip-'));
  writeWav(path.join(dir, 'says.wav'), says);
  const port = await freeSipPort();
  fs.writeFileSync(
    path.join(dir, 'config'),
    [
      'poll_method epoll',
      `sip_listen 127.0.0.1:${port}`,
      'audio_player aufile,' + path.join(dir, 'heard.wav'),
      'audio_source aufile,' + path.join(dir, 'says.wav'),
      'audio_alert aufile,/dev/null',
      'module_path /usr/lib/baresip/modules',
      'module g711.so',
      'module aufile.so',
      'module srtp.so',
      'module_app account.so',
      'module_app menu.so',
      'rtp_ports 20000-20999',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'accounts'), `<sip:+447700900555@127.0.0.1;transport=tls>;regint=0;mediaenc=srtp-mand;audio_codecs=PCMU\n`);
  const child: ChildProcess = spawn('baresip', ['-f', dir, '-e', `/dial sip:${target.did}@${target.host}:${target.port};transport=tls`], { stdio: ['pipe', 'pipe', 'pipe'], cwd: dir });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  return {
    output: () => out,
    stop: () => {
      child.kill('SIGKILL');
      process.off('exit', reap);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
