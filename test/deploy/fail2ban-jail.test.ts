// Issue 53 item 5, issue 60 item 5: the SIP ban never bans a trunk's provider.
// deploy/fail2ban/entrypoint.sh resolves every trunk host the box is configured with (the
// registration provider's SIP_REG_SERVER, the DID provider's SIP_UKDID_HOST, and with the twilio
// trunk Twilio's SIP_TWILIO_TERMINATION and its signalling ranges) into the jail's ignoreip when
// it starts, and the jail uses the project's filter. SIP_BAN=off renders nothing. Rendered here (--render-only), its decisions
// read from the jail it writes; the names used resolve from /etc/hosts or are addresses, so
// nothing is looked up beyond this machine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/config/paths.js';

const DEPLOY = path.join(projectRoot(), 'deploy', 'fail2ban');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The rendered jail's settings, by name. */
function render(env: Record<string, string>): { status: number | null; stderr: string; jail: Record<string, string>; rendered: boolean } {
  const etc = fs.mkdtempSync(path.join(os.tmpdir(), 'f2b-jail-'));
  dirs.push(etc);
  fs.mkdirSync(path.join(etc, 'jail.d'));
  const r = spawnSync('sh', [path.join(DEPLOY, 'entrypoint.sh'), '--render-only'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FAIL2BAN_TEMPLATES: DEPLOY, FAIL2BAN_ETC: etc, SIP_LOCAL_NET: '10.0.0.0/8', ...env },
    encoding: 'utf8',
  });
  const file = path.join(etc, 'jail.d', 'asterisk-sip.local');
  const jail: Record<string, string> = {};
  const rendered = fs.existsSync(file);
  if (rendered) for (const m of fs.readFileSync(file, 'utf8').matchAll(/^(\w+) = (.*)$/gm)) jail[m[1]!] = m[2]!;
  return { status: r.status, stderr: r.stderr, jail, rendered };
}

/** The ranges Asterisk's twilio trunk identifies Twilio's calls by (its `match=` lines). */
function twilioIdentifyRanges(): string[] {
  const conf = fs.readFileSync(path.join(projectRoot(), 'deploy', 'asterisk', 'etc', 'pjsip.d', 'twilio.conf'), 'utf8');
  return [...conf.matchAll(/^match=(\S+)$/gm)].map((m) => m[1]!);
}

describe('deploy/fail2ban/entrypoint.sh: the jail it renders', () => {
  it('puts the addresses the trunks’ provider hosts resolve to in ignoreip, beside the listed ranges', () => {
    const { status, stderr, jail } = render({ SIP_REG_SERVER: 'localhost:5060', SIP_UKDID_HOST: '192.0.2.44', SIP_UKDID_MATCH: '198.51.100.0/24' });
    expect(status, stderr).toBe(0);
    const ignored = jail.ignoreip!.split(' ');
    expect(ignored).toContain('127.0.0.1');
    expect(ignored).toContain('192.0.2.44');
    expect(ignored).toContain('198.51.100.0/24');
    expect(ignored).toContain('10.0.0.0/8');
    expect(ignored).not.toContain('localhost:5060');
  });

  it('without trunk hosts ignores only the listed ranges', () => {
    const { status, stderr, jail } = render({ SIP_UKDID_MATCH: '198.51.100.0/24' });
    expect(status, stderr).toBe(0);
    expect(jail.ignoreip).toBe('198.51.100.0/24 10.0.0.0/8');
  });

  it('with the twilio trunk, never bans Twilio: its termination host resolved and every range its trunk identifies calls by', () => {
    const { status, stderr, jail } = render({ SIP_TRUNKS: 'uk-did, twilio', SIP_TWILIO_TERMINATION: 'localhost', SIP_UKDID_HOST: '192.0.2.44:5070' });
    expect(status, stderr).toBe(0);
    const ignored = jail.ignoreip!.split(' ');
    expect(ignored).toContain('127.0.0.1');
    expect(ignored).toContain('192.0.2.44');
    expect(twilioIdentifyRanges().length).toBeGreaterThan(0);
    for (const range of twilioIdentifyRanges()) expect(ignored, range).toContain(range);
  });

  it('without the twilio trunk, neither Twilio’s host nor its ranges are exempt', () => {
    const { status, stderr, jail } = render({ SIP_TRUNKS: 'uk-did', SIP_TWILIO_TERMINATION: '192.0.2.77', SIP_UKDID_MATCH: '198.51.100.0/24' });
    expect(status, stderr).toBe(0);
    expect(jail.ignoreip).toBe('198.51.100.0/24 10.0.0.0/8');
  });

  it('a trunk host that does not resolve now is kept by name, for fail2ban to resolve when it judges', () => {
    const { status, stderr, jail } = render({ SIP_TRUNKS: 'registration', SIP_REG_SERVER: 'sip:nowhere.invalid;transport=udp' });
    expect(status, stderr).toBe(0);
    expect(jail.ignoreip!.split(' ')).toContain('nowhere.invalid');
    expect(stderr).toContain('the trunk host "nowhere.invalid" does not resolve now');
  });

  it('never bans the cluster’s carriers (KAMAILIO_CARRIERS)', () => {
    const { status, stderr, jail } = render({ KAMAILIO_CARRIERS: '198.51.100.0/24,203.0.113.5' });
    expect(status, stderr).toBe(0);
    expect(jail.ignoreip).toBe('198.51.100.0/24 203.0.113.5 10.0.0.0/8');
  });

  it('SIP_BAN=off renders no jail; any other value than on or off is refused, saying which', () => {
    const off = render({ SIP_BAN: 'off' });
    expect(off.status, off.stderr).toBe(0);
    expect(off.rendered).toBe(false);
    expect(render({ SIP_BAN: 'on' }).rendered).toBe(true);
    const bad = render({ SIP_BAN: 'no' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('SIP_BAN must be on or off, got "no"');
  });

  it('uses the project’s filter, which knows PJSIP’s "after N tries" lines', () => {
    expect(render({}).jail.filter).toBe('asterisk-sip');
  });

  it('refuses a host setting that would change the jail, saying which', () => {
    const { status, stderr } = render({ SIP_REG_SERVER: 'sip.example.net\nignoreip = 0.0.0.0/0' });
    expect(status).toBe(2);
    expect(stderr).toContain("SIP_REG_SERVER must not contain '[', ']', '%', '$' or a line break");
  });
});
