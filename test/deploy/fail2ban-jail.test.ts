// Issue 53 item 5: the SIP ban never bans a trunk's provider. deploy/fail2ban/entrypoint.sh
// resolves the registration provider's host (SIP_REG_SERVER, as Asterisk's registration trunk
// is configured) and the DID provider's proxy (SIP_UKDID_HOST) into the jail's ignoreip when it
// starts, and the jail uses the project's filter. Rendered here (--render-only), its decisions
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
function render(env: Record<string, string>): { status: number | null; stderr: string; jail: Record<string, string> } {
  const etc = fs.mkdtempSync(path.join(os.tmpdir(), 'f2b-jail-'));
  dirs.push(etc);
  fs.mkdirSync(path.join(etc, 'jail.d'));
  const r = spawnSync('sh', [path.join(DEPLOY, 'entrypoint.sh'), '--render-only'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FAIL2BAN_TEMPLATES: DEPLOY, FAIL2BAN_ETC: etc, SIP_LOCAL_NET: '10.0.0.0/8', ...env },
    encoding: 'utf8',
  });
  const file = path.join(etc, 'jail.d', 'asterisk-sip.local');
  const jail: Record<string, string> = {};
  if (fs.existsSync(file)) for (const m of fs.readFileSync(file, 'utf8').matchAll(/^(\w+) = (.*)$/gm)) jail[m[1]!] = m[2]!;
  return { status: r.status, stderr: r.stderr, jail };
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

  it('uses the project’s filter, which knows PJSIP’s "after N tries" lines', () => {
    expect(render({}).jail.filter).toBe('asterisk-sip');
  });

  it('refuses a host setting that would change the jail, saying which', () => {
    const { status, stderr } = render({ SIP_REG_SERVER: 'sip.example.net\nignoreip = 0.0.0.0/0' });
    expect(status).toBe(2);
    expect(stderr).toContain("SIP_REG_SERVER must not contain '[', ']', '%', '$' or a line break");
  });
});
