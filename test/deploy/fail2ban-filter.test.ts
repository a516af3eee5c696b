// Issue 53 item 5: the SIP ban's filter (deploy/fail2ban/filter.d/asterisk-sip.conf) run by
// fail2ban-regex on lines a real Asterisk 20.17.0 wrote to security.log
// (fixtures/asterisk-20-security.log: copied from two runs of test/pbx-real/sip-failure-lines.test.ts,
// which checks the same on its own run's log): unknown endpoints, PJSIP's "after N tries" form
// (auth_username among the identifiers, without and with an Authorization header), wrong
// passwords; and none of Asterisk's start-up or reload notices.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fail2banRegex, fail2banRegexAvailable } from './fail2ban-regex.js';

const LOG = path.join(import.meta.dirname, 'fixtures', 'asterisk-20-security.log');

describe.skipIf(!fail2banRegexAvailable())('the SIP ban filter on Asterisk 20’s own lines (fail2ban-regex)', () => {
  it('matches every failure line, the "after N tries" ones included, each for its address', () => {
    const run = fail2banRegex(LOG, 'project');
    expect(run.matched).toBe(11);
    expect(run.hosts).toEqual({ '127.0.0.3': 3, '127.0.0.4': 5, '127.0.0.5': 3 } satisfies Record<string, number>);
  });

  it('Debian’s own filter misses the four "after N tries" lines (what the project’s adds)', () => {
    expect(fail2banRegex(LOG, 'debian').matched).toBe(7);
  });
});
