// Issue 53 item 5: the SIP ban's filter (deploy/fail2ban/filter.d/asterisk-sip.conf) matches
// every failure line a real Asterisk 20.17.0 writes to security.log, the "after N tries" form
// included, tested with fail2ban-regex on this run's own log. The lines it writes are also kept
// in test/deploy/fixtures/asterisk-20-security.log, which test/deploy/fail2ban-filter.test.ts
// reads where no Asterisk runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait.js';
import { fail2banRegex } from '../deploy/fail2ban-regex.js';
import { findAsterisk } from './asterisk-install.js';
import { AsteriskInstance } from './asterisk-instance.js';
import { realPbxAvailability } from './harness.js';
import { SipSender } from './sip-sender.js';

const real = realPbxAvailability();
/** Three scanners, one address each: PJSIP counts unidentified requests per address. */
const UNKNOWN = '127.0.0.3';
const COUNTED = '127.0.0.4';
const GUESSER = '127.0.0.5';

// An endpoint found by its user name with a password, as "Call my line"'s tc-… endpoints are.
const PROBED_ENDPOINT = `
[scan-probe]
type=endpoint
identify_by=username
auth=scan-probe-auth
disallow=all
allow=ulaw
context=public

[scan-probe-auth]
type=auth
auth_type=userpass
username=scan-probe
password=the-right-password
`;

describe.skipIf(!real.ok)('the SIP ban filter on a real Asterisk 20’s security.log', () => {
  let asterisk: AsteriskInstance;
  let log: string;
  beforeAll(async () => {
    const found = findAsterisk();
    if (!found.ok) throw new Error(found.why);
    asterisk = await AsteriskInstance.start({ root: found.root });
    log = path.join(asterisk.run, 'log', 'security.log');
  }, 120_000);
  afterAll(async () => {
    await asterisk?.destroy();
  });

  const linesOf = (reason: RegExp) => fs.readFileSync(log, 'utf8').split('\n').filter((l) => reason.test(l));

  it('unknown endpoints, "after N tries" and wrong passwords are all matched, by address', async () => {
    const target = { host: '127.0.0.1', port: asterisk.sipPort };
    // 1. The project's identifier order: every unknown request is logged on its own.
    const unknown = await SipSender.open(UNKNOWN, target);
    for (let i = 0; i < 3; i++) await unknown.send(i % 2 ? 'REGISTER' : 'INVITE', `unknown-${i}@scan`, String(200 + i));
    await waitUntil(() => expect(linesOf(/No matching endpoint found$/)).toHaveLength(3), 30_000, 50);
    unknown.close();

    // 2. With auth_username among the identifiers (an operator's change, or a later default),
    //    PJSIP counts an address's unidentified requests and logs only from the fifth within
    //    unidentified_request_period on, each "after N tries in … ms". Without an Authorization
    //    header these are the only lines they earn: Debian's filter alone bans none of them.
    const pjsip = path.join(asterisk.etc, 'pjsip.conf');
    fs.writeFileSync(pjsip, `${fs.readFileSync(pjsip, 'utf8').replace(/^endpoint_identifier_order=.*$/m, 'endpoint_identifier_order=username,ip,anonymous,auth_username')}\n${PROBED_ENDPOINT}`);
    asterisk.cli('module reload res_pjsip.so');
    await waitUntil(() => expect(asterisk.cli('pjsip show endpoint scan-probe')).toContain('scan-probe-auth'), 30_000, 200);
    const counted = await SipSender.open(COUNTED, target);
    for (let i = 0; i < 7; i++) {
      await counted.send('REGISTER', `counted-${i}@scan`, String(300 + i));
    }
    await waitUntil(() => expect(linesOf(/No matching endpoint found after \d+ tries in [\d.]+ ms$/)).toHaveLength(3), 30_000, 50);
    counted.close();

    // 3. A known endpoint and a wrong password: the challenge's nonce, then a wrong answer.
    const guesser = await SipSender.open(GUESSER, target);
    await guesser.send('REGISTER', 'guess-0@scan', 'scan-probe');
    const challenge = await waitUntil(() => {
      const c = guesser.challenges.get('guess-0@scan');
      if (!c) throw new Error('no challenge yet');
      return c;
    }, 30_000, 20);
    const nonce = /nonce="([^"]+)"/.exec(challenge)![1]!;
    const realm = /realm="([^"]+)"/.exec(challenge)![1]!;
    for (let i = 1; i <= 3; i++) {
      await guesser.send('REGISTER', `guess-${i}@scan`, 'scan-probe', `Digest username="scan-probe", realm="${realm}", nonce="${nonce}", uri="sip:127.0.0.1:${asterisk.sipPort}", algorithm=MD5, response="0123456789abcdef0123456789abcdef"`);
    }
    await waitUntil(() => expect(linesOf(/Failed to authenticate$/)).toHaveLength(3), 30_000, 50);
    guesser.close();

    const failures = linesOf(/Request '[A-Z]+' from .* failed for '/);
    expect(failures).toHaveLength(9);
    const project = fail2banRegex(log, 'project');
    expect(project.matched).toBe(9);
    expect(project.hosts).toEqual({ [UNKNOWN]: 3, [COUNTED]: 3, [GUESSER]: 3 });
    // Debian's own filter misses the counted form: what the project's filter adds.
    expect(fail2banRegex(log, 'debian').matched).toBe(6);
    console.log(`sip-failure-lines (fixture for test/deploy/fixtures/asterisk-20-security.log):\n${failures.join('\n')}`);
  }, 120_000);
});
