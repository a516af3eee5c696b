// Encrypted trunks on a real Asterisk 20.17.0 with the project's configuration: the TLS
// transport (SIP_TLS_CERT/SIP_TLS_KEY, a self-signed pair made here by openssl) and SRTP
// required on the trunk (SIP_SRTP=required). baresip calls over TLS with SDES-SRTP and leaves a
// message; SIPp's plain RTP offer is refused.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { baresipCall } from './baresip.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('TLS and SRTP trunks on a real Asterisk', () => {
  let h: RealPbx;
  let certDir: string;
  beforeAll(async () => {
    certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sip-tls-'));
    const cert = path.join(certDir, 'cert.pem');
    const key = path.join(certDir, 'key.pem');
    const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl: ${r.stderr}`);
    h = await startRealPbx({ pipeline: false, asteriskEnv: { SIP_TLS_CERT: cert, SIP_TLS_KEY: key, SIP_SRTP: 'required' } });
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    fs.rmSync(certDir, { recursive: true, force: true });
  });

  it('a caller over TLS with SRTP leaves a message: stored, holding what was said', async () => {
    const { did } = await h.business({ businessName: 'Cipher Locksmiths' });
    const words = speech('This is Alex, my front door lock is jammed, please call me back today.');
    // What the caller's phone sends from the answer: quiet through the greeting and the beep, then the words, then quiet.
    const quiet = (s: number) => new Int16Array(8000 * s);
    const says = new Int16Array([...quiet(14), ...words, ...quiet(12)]);
    const call = await baresipCall({ host: '127.0.0.1', port: h.asterisk.tlsPort, did }, says);
    try {
      const row = await h.finishedRow(did, 120_000);
      expect(row, call.output()).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
      const stored = readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
      expect(envelopeMatch(words, stored).score).toBeGreaterThan(0.8);
      // The call was SIP over TLS and its media SRTP (baresip's own words; a plain offer is refused below).
      expect(call.output()).toMatch(/Call established: sip:[^ ]*;transport=tls/);
      expect(call.output()).toContain('SRTP is Enabled (cryptosuite=AES_CM_128_HMAC_SHA1_80)');
    } finally {
      call.stop();
    }
  }, 300_000);

  it('a plain RTP offer to the trunk is refused (488) and leaves no call row', async () => {
    const { did } = await h.business({ businessName: 'Plain Text Plumbing' });
    const call = await h.call(did);
    const result = await call.done;
    expect(result.errors).toMatch(/488 Not Acceptable Here/);
    expect(await h.rows(did)).toEqual([]);
  }, 120_000);
});
