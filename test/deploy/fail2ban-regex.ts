import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';

// fail2ban-regex (Debian's fail2ban) run on a log with the SIP ban's filter as the image installs
// it: Debian's /etc/fail2ban with deploy/fail2ban/filter.d beside its own filters.

/** Whether fail2ban-regex can run here; under CI=true its absence is a failure, not a skip. */
export function fail2banRegexAvailable(): boolean {
  const ok = spawnSync('fail2ban-regex', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!ok && process.env.CI) throw new Error('CI must test the SIP ban filter: install fail2ban (apt-get install fail2ban) for fail2ban-regex');
  return ok;
}

export interface RegexRun {
  /** Lines the filter matched. */
  matched: number;
  /** The address each matched line names, and how many. */
  hosts: Record<string, number>;
}

/** Runs fail2ban-regex on `log` with the project's filter (asterisk-sip) or Debian's own (asterisk). */
export function fail2banRegex(log: string, filter: 'project' | 'debian'): RegexRun {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'f2b-regex-'));
  try {
    fs.cpSync('/etc/fail2ban', dir, { recursive: true });
    fs.cpSync(path.join(projectRoot(), 'deploy', 'fail2ban', 'filter.d'), path.join(dir, 'filter.d'), { recursive: true });
    const name = filter === 'project' ? 'asterisk-sip' : 'asterisk';
    const r = spawnSync('fail2ban-regex', ['--config', dir, '-o', 'ip', log, name], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`fail2ban-regex failed (${r.status}): ${r.stderr}${r.stdout}`);
    const ips = r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    const hosts: Record<string, number> = {};
    for (const ip of ips) hosts[ip] = (hosts[ip] ?? 0) + 1;
    return { matched: ips.length, hosts };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
