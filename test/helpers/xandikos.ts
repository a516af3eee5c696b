import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Radicale } from './radicale.js';
import { servedProcess } from './served-process.js';
import { waitUntil } from './wait.js';
import { freeTcpPort } from '../pbx-real/ports.js';

// Debian's other CalDAV server for the booking tests (issue 53, item 3): xandikos, in a temp
// folder, on a free loopback port, with its default calendar. Xandikos leaves sign-in to a proxy
// in front of it, so it takes any user name and password; the box sends them all the same.
// A missing xandikos fails the test that needs it (`.ci/run` installs it), never skips it.

export async function startXandikos(): Promise<Radicale> {
  if (spawnSync('xandikos', ['--version']).error) throw new Error('xandikos is not installed: apt-get install -y xandikos (.ci/run installs it when missing)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xandikos-'));
  const port = await freeTcpPort();
  const url = `http://127.0.0.1:${port}`;
  const run = async (): Promise<ChildProcess> => {
    const child = spawn('xandikos', ['-d', dir, '--defaults', '-l', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
    await waitUntil(async () => {
      if (child.exitCode !== null) throw new Error(`xandikos exited: ${stderr}`);
      const res = await fetch(`${url}/user/calendars/calendar/`, { method: 'PROPFIND', headers: { depth: '0' } });
      if (res.status !== 207) throw new Error(`xandikos answered ${res.status}`);
      return true;
    }, 30_000, 100);
    return child;
  };
  return { url, user: 'owner', password: 'app-password-1', calendarUrl: `${url}/user/calendars/calendar/`, ...await servedProcess(dir, run) };
}
