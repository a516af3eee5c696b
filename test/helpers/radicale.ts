import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { servedProcess } from './served-process.js';
import { waitUntil } from './wait.js';
import { freeTcpPort } from '../pbx-real/ports.js';

// A real CalDAV server for the booking tests: Debian's radicale, in a temp folder, on a free
// loopback port, with one htpasswd user (plain-text passwords, which radicale's htpasswd
// backend accepts, so no apache2-utils is needed).

export interface Radicale {
  url: string;
  user: string;
  password: string;
  /** The user's calendar collection (made by MKCALENDAR). */
  calendarUrl: string;
  /** Stops the server but keeps its calendars (a server that is down for a while). */
  halt(): Promise<void>;
  /** Starts it again, on the same port with the same calendars, after `halt`. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRadicale(): Promise<Radicale> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radicale-'));
  const user = 'owner';
  const password = 'app-password-1';
  fs.writeFileSync(path.join(dir, 'users'), `${user}:${password}\n`);
  const port = await freeTcpPort();
  fs.writeFileSync(path.join(dir, 'config'), [
    '[server]', `hosts = 127.0.0.1:${port}`,
    '[auth]', 'type = htpasswd', `htpasswd_filename = ${path.join(dir, 'users')}`, 'htpasswd_encryption = plain', 'delay = 0',
    '[storage]', `filesystem_folder = ${path.join(dir, 'collections')}`,
    '[rights]', 'type = owner_only',
    '[logging]', 'level = warning',
  ].join('\n'));
  const url = `http://127.0.0.1:${port}`;
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  /** Starts radicale on this folder and port, resolving once it answers. */
  const run = async (): Promise<ChildProcess> => {
    const child = spawn('radicale', ['--config', path.join(dir, 'config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
    await waitUntil(async () => {
      if (child.exitCode !== null) throw new Error(`radicale exited: ${stderr}`);
      await fetch(`${url}/.well-known/caldav`, { redirect: 'manual' });
      return true;
    }, 30_000, 100);
    return child;
  };
  const served = await servedProcess(dir, run);
  const calendarUrl = `${url}/${user}/work/`;
  const made = await fetch(calendarUrl, {
    method: 'MKCALENDAR', headers: { authorization, 'content-type': 'application/xml' },
    body: '<?xml version="1.0"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>Work</D:displayname></D:prop></D:set></C:mkcalendar>',
  });
  if (made.status !== 201) throw new Error(`MKCALENDAR answered ${made.status}: ${await made.text()}`);
  return { url, user, password, calendarUrl, ...served };
}

/** PUTs raw iCalendar text into the calendar, as another client would. */
export async function putIcs(r: Radicale, name: string, ics: string): Promise<void> {
  const res = await fetch(`${r.calendarUrl}${name}`, {
    method: 'PUT', headers: { authorization: `Basic ${Buffer.from(`${r.user}:${r.password}`).toString('base64')}`, 'content-type': 'text/calendar' }, body: ics,
  });
  if (res.status >= 300) throw new Error(`PUT ${name} answered ${res.status}: ${await res.text()}`);
}
