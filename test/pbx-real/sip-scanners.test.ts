// SIP scanners against a real Asterisk 20.17.0 with the project's configuration, and Debian's
// fail2ban with the project's jail (deploy/fail2ban) watching its security.log: the carrier
// (SIP_UKDID_MATCH) sends from 127.0.0.2, the scanner from 127.0.0.1 (SIPVicious sends from the
// machine's own address whatever -b says). The ban is a real iptables rule, on this run's SIP
// port only (test/pbx-real/fail2ban.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, notifications } from '../helpers/tables.js';
import { waitUntil } from '../helpers/wait.js';
import { findAsterisk } from './asterisk-install.js';
import { AsteriskInstance } from './asterisk-instance.js';
import { speech } from './audio.js';
import { Fail2ban } from './fail2ban.js';
import { CALLER, heardGreetingAndBeep, realPbxAvailability, startRealPbx, textsSent, type RealPbx } from './harness.js';
import { SipSender } from './sip-sender.js';

const real = realPbxAvailability();
const CARRIER = '127.0.0.2';
const SCANNER = '127.0.0.1';
const OWNER = '+447700900123';

/** Sends `method` from `sender` and waits for its answer. */
async function answeredBy(sender: SipSender, callId: string, timeoutMs = 30_000): Promise<number[]> {
  await sender.send('OPTIONS', callId);
  return waitUntil(() => {
    const got = sender.answers.get(callId);
    if (!got) throw new Error(`no answer to ${callId} yet`);
    return got;
  }, timeoutMs, 20);
}

describe.skipIf(!real.ok)('SIP scanners on a real Asterisk, banned by fail2ban', () => {
  let h: RealPbx;
  let ban: Fail2ban;
  let scanner: SipSender;
  let carrier: SipSender;
  const target = () => ({ host: '127.0.0.1', port: h.asterisk.sipPort });

  beforeAll(async () => {
    h = await startRealPbx({ pipeline: true, asteriskEnv: { SIP_UKDID_MATCH: CARRIER } });
    ban = await Fail2ban.start({ log: path.join(h.asterisk.run, 'log', 'security.log'), sipPort: h.asterisk.sipPort, env: { SIP_UKDID_MATCH: CARRIER } });
    scanner = await SipSender.open(SCANNER, target());
    carrier = await SipSender.open(CARRIER, target());
  }, 180_000);
  afterAll(async () => {
    scanner?.close();
    carrier?.close();
    await ban?.stop();
    await h?.close();
  });

  it('SIPVicious enumerates no extension: every probe gets the same challenge', () => {
    const port = String(h.asterisk.sipPort);
    for (const args of [['-m', 'INVITE', '-e', '100-199,1000-1010'], ['-m', 'REGISTER', '-e', '100-199,1000-1010']]) {
      const r = spawnSync('svwar', [...args, '-p', port, SCANNER], { encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      // Its table of extensions ("Extension | Authentication") is printed only when it found one.
      expect(r.stdout).not.toMatch(/Extension/);
      expect(r.stderr).toContain('found nothing');
    }
    // Those probes were logged where the ban tool reads them.
    expect(spawnSync('cat', [path.join(h.asterisk.run, 'log', 'security.log')], { encoding: 'utf8' }).stdout).toMatch(
      /Request 'INVITE' from .* failed for '127\.0\.0\.1:\d+' .* - No matching endpoint found/,
    );
  });

  it('a flood of INVITE/REGISTER from one address: the carrier’s caller leaves a message meanwhile; the address is then banned, the carrier still answered', async () => {
    const { userId, did } = await h.business({ businessName: 'Flood Street Dental', notificationNumber: OWNER });
    let sent = 0;
    let bannedAt: number | undefined;
    let flooding = true;
    // About 300 requests a second, INVITE and REGISTER in turn (the scanner sent 3,930
    // in 20 s), until the ban is in and 2,000 more have gone after it, and 3,000 at least.
    const flood = (async () => {
      while (flooding) {
        for (let i = 0; i < 30; i++) {
          await scanner.send(sent % 2 ? 'REGISTER' : 'INVITE', `flood-${sent}@scanner`, sent % 2 ? String(100 + (sent % 900)) : did);
          sent++;
        }
        if (bannedAt === undefined && ban.bannedNow().includes(SCANNER)) bannedAt = sent;
        if (bannedAt !== undefined && sent >= bannedAt + 2000 && sent >= 3000) break;
        if (sent > 30_000) throw new Error(`not banned after ${sent} requests:\n${ban.log().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100)); // pacing the flood, not waiting for an outcome
      }
    })();

    const batch = await h.calls([{ did, from: CALLER }], { localAddress: CARRIER });
    const call = batch.calls[0]!;
    await heardGreetingAndBeep(call);
    await call.media.say(speech('This is Jo, calling about my crown. Please ring me back tomorrow morning.'));
    const result = await batch.done;
    expect(result.exitCode, result.errors).toBe(0);
    expect(result.signalling[0]!.final).toBe(200);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'voicemail', fromNumber: CALLER, recordingFile: `call-${row.id}.wav` });
    const texts = await textsSent(h, row.id);
    expect(texts[0]).toMatchObject({ userId, to: OWNER, kind: 'summary' });

    await flood;
    flooding = false;
    expect(bannedAt).toBeDefined();
    expect(sent).toBeGreaterThanOrEqual(3000);
    // Before the ban the scanner was answered (a challenge, never a call); nothing it sent after.
    const answeredBefore = [...Array(bannedAt!).keys()].filter((i) => scanner.answered(`flood-${i}@scanner`)).length;
    expect(answeredBefore).toBeGreaterThan(0);
    expect(new Set([...scanner.answers.values()].flat())).toEqual(new Set([401]));

    // The scanner's OPTIONS, sent first, is still unanswered once the carrier's two, sent after it, are answered.
    await scanner.send('OPTIONS', 'after-ban@scanner');
    expect(await answeredBy(carrier, 'after-ban-1@carrier')).toContain(200);
    expect(await answeredBy(carrier, 'after-ban-2@carrier')).toContain(200);
    const answeredAfter = [...Array(sent - bannedAt!).keys()].filter((i) => scanner.answered(`flood-${bannedAt! + i}@scanner`)).length;
    expect(answeredAfter).toBe(0);
    expect(scanner.answered('after-ban@scanner')).toBe(false);
    // SIPVicious no longer finds even that a SIP server is there.
    const map = spawnSync('svmap', ['-p', String(h.asterisk.sipPort), SCANNER], { encoding: 'utf8', timeout: 120_000 });
    expect(map.stdout).not.toContain('CallKeeper');
    expect(map.stderr).toContain('found nothing');

    // No row and no text came from the scanner: the carrier's call is the only one.
    const db = h.server.database.db;
    expect((await db.select().from(calls)).map((c) => c.id)).toEqual([row.id]);
    expect(new Set((await db.select().from(notifications)).map((n) => n.callId))).toEqual(new Set([row.id]));
    console.log(
      `sip-scanners: ${sent} INVITE/REGISTER sent, banned after ${bannedAt}; carrier's INVITE → 200 OK in ${result.signalling[0]!.inviteToFinalMs} ms during the flood`,
    );
  }, 300_000);
});

describe.skipIf(!real.ok)('SIP_ALLOW_FROM: only the carriers’ ranges may send SIP', () => {
  let asterisk: AsteriskInstance;
  beforeAll(async () => {
    const found = findAsterisk();
    if (!found.ok) throw new Error(found.why);
    asterisk = await AsteriskInstance.start({ root: found.root, env: { SIP_UKDID_MATCH: CARRIER, SIP_ALLOW_FROM: `${CARRIER}/32` } });
  });
  afterAll(async () => {
    await asterisk?.destroy();
  });

  it('another address is refused 403 before any challenge; the carrier is answered', async () => {
    const target = { host: '127.0.0.1', port: asterisk.sipPort };
    const other = await SipSender.open(SCANNER, target);
    const carrier = await SipSender.open(CARRIER, target);
    try {
      expect(await answeredBy(other, 'acl-1@other')).toEqual([403]);
      expect(await answeredBy(carrier, 'acl-1@carrier')).toEqual([200]);
    } finally {
      other.close();
      carrier.close();
    }
  });
});
