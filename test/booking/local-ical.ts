// A calendar publishing an iCal address, served on loopback for tests, and the guard that lets
// the box reach it by one name only: the same server reached as 127.0.0.1 is refused, as any
// loopback address is in production. No DNS leaves the box: any other name is not found.
import http from 'node:http';
import type { GuardOptions } from '../../core/webhooks/address-guard.js';

export const ICAL_HOST = 'calendar.test';

export const ICAL_GUARD: GuardOptions = {
  resolver: async (host) => {
    if (host === ICAL_HOST) return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  },
  allowLoopback: (host) => host === ICAL_HOST,
};

const event = (uid: string, start: string, end: string) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20261101T000000Z', `DTSTART:${start}`, `DTEND:${end}`, 'SUMMARY:Busy', 'END:VEVENT'];

/** Three busy times in the four weeks after 1 Dec 2026 (the first Wed 2 Dec, 14:30 London), and one in February. */
const FEED = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//feed//EN',
  ...event('a', '20261203T100000Z', '20261203T110000Z'),
  ...event('b', '20261202T143000Z', '20261202T150000Z'),
  ...event('c', '20261214T090000Z', '20261214T100000Z'),
  ...event('far', '20270201T090000Z', '20270201T100000Z'),
  'END:VCALENDAR', ''].join('\r\n');

export interface LocalIcal {
  /** The calendar's address as the owner pastes it. */
  good: string;
  port: number;
  /** Requests the server has had. */
  hits(): number;
  /** While down, every request is answered 500. */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

/** `/secret/basic.ics` the feed, `/page` an HTML sign-in page, anything else 404. */
export async function startLocalIcal(): Promise<LocalIcal> {
  let hits = 0;
  let down = false;
  const server = http.createServer((req, res) => {
    hits++;
    if (down) return void res.writeHead(500).end();
    if (req.url === '/secret/basic.ics') return void res.writeHead(200, { 'content-type': 'text/calendar' }).end(FEED);
    if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in</body></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    good: `http://${ICAL_HOST}:${port}/secret/basic.ics`,
    port,
    hits: () => hits,
    setDown: (d) => { down = d; },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
