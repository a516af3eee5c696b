import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback proxy in front of a test server that notes every request it passes on (method,
// path, Depth, the body's first element, and how many events the answer carried; answers are asked
// for uncompressed so they can be read), so a test can say what the box asked for and was sent.

interface SeenRequest {
  method: string;
  path: string;
  depth?: string;
  /** The XML body's root element without its prefix (`propfind`, `calendar-query`, `calendar-multiget`), or ''. */
  root: string;
  /** How many objects a calendar-multiget asked for. */
  hrefs: number;
  /** How many calendar objects (VCALENDARs) the answer carried, once it has been passed back. */
  events: number;
}

export interface CountingProxy {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      const root = /<(?:[\w-]+:)?([\w-]+)[\s>/]/.exec(text.replace(/<\?xml[^>]*\?>/, ''))?.[1] ?? '';
      const entry: SeenRequest = { method: req.method ?? '', path: req.url ?? '', depth: req.headers.depth as string | undefined, root, hrefs: (text.match(/<(?:[\w-]+:)?href[\s>]/g) ?? []).length, events: 0 };
      seen.push(entry);
      const out = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host, 'accept-encoding': 'identity' } }, (answer) => {
        const back: Buffer[] = [];
        answer.on('data', (c: Buffer) => back.push(c));
        answer.on('end', () => {
          entry.events = (Buffer.concat(back).toString('utf8').match(/BEGIN:VCALENDAR/g) ?? []).length;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(back));
        });
      });
      out.on('error', () => { res.statusCode = 502; res.end(); });
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
