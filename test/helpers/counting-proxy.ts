import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback proxy in front of a test server that notes every request it passes on (method,
// path, Depth and the body's first element), so a test can say what the box asked for.

export interface SeenRequest {
  method: string;
  path: string;
  depth?: string;
  /** The XML body's root element without its prefix (`propfind`, `calendar-query`, `calendar-multiget`), or ''. */
  root: string;
  /** How many objects a calendar-multiget asked for. */
  hrefs: number;
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
      seen.push({ method: req.method ?? '', path: req.url ?? '', depth: req.headers.depth as string | undefined, root, hrefs: (text.match(/<(?:[\w-]+:)?href[\s>]/g) ?? []).length });
      const out = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
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
