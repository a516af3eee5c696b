import type { BrowserLine, BrowserLineEndpoints } from '../../core/ports/browser-lines.js';
import { createAriHttp } from '../ari/http.js';
import { AriNotFoundError } from '../ari/types.js';

/**
 * One-call browser lines as endpoints in ARI's dynamic configuration (PUT /asterisk/config/
 * dynamic/res_pjsip/...): an auth and an endpoint, both named as the line, made per line and
 * removed with it (pbx/call-my-line/lines.ts says why per-line endpoints). What sets one kind
 * apart from another is the endpoint's settings: the kind's own (its WebRTC template and context)
 * and each line's (its caller ID, the number it may ring).
 */
export function createDynamicEndpoints<L extends BrowserLine>(
  ari: { url: string; username: string; password: string },
  endpoint: { settings: Readonly<Record<string, string>>; perLine: (line: L) => Record<string, string> },
): BrowserLineEndpoints<L> {
  const http = createAriHttp({ ...ari, maxSockets: 2 });
  const put = (type: string, id: string, fields: Record<string, string>) =>
    http.json('PUT', `/asterisk/config/dynamic/res_pjsip/${type}/${encodeURIComponent(id)}`, undefined, {
      fields: Object.entries(fields).map(([attribute, value]) => ({ attribute, value })),
    });
  const remove = (type: string, id: string) =>
    http.json('DELETE', `/asterisk/config/dynamic/res_pjsip/${type}/${encodeURIComponent(id)}`).catch((err: unknown) => {
      if (!(err instanceof AriNotFoundError)) throw err;
    });
  const base = new URL(ari.url.replace(/\/+$/, '').replace(/\/ari$/, ''));
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    wsUrl: `${base.origin}/ws`,
    async open(line: L) {
      await put('auth', line.name, { auth_type: 'userpass', username: line.name, password: line.password });
      await put('endpoint', line.name, { ...endpoint.settings, auth: line.name, ...endpoint.perLine(line) });
    },
    async close(name: string) {
      await remove('endpoint', name);
      await remove('auth', name);
    },
    async list() {
      const endpoints = await http.json<Array<{ resource: string }>>('GET', '/endpoints/PJSIP');
      return endpoints.map((e) => e.resource);
    },
  };
}
