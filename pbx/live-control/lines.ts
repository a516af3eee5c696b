import type { LiveLineEndpoints } from '../../core/ports/live-listen.js';
import { createAriHttp } from '../ari/http.js';
import { AriNotFoundError } from '../ari/types.js';
import { CALL_MY_LINE_ENDPOINT } from '../call-my-line/lines.js';

/**
 * The live calls' browser lines on Asterisk (issue 54): per-line endpoints over ARI's dynamic
 * configuration, as Call my line's (pbx/call-my-line/lines.ts says why), with its WebRTC settings
 * (ulaw and alaw only: a listen or a take-over adds no transcoding to a call from the trunk)
 * but the context [live-line], which rings only the core's app: what a line is bridged to is the
 * core's to decide (live-control.ts), never the browser's.
 */
export function createLiveLineEndpoints(ari: { url: string; username: string; password: string }): LiveLineEndpoints {
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
    async open(line) {
      await put('auth', line.name, { auth_type: 'userpass', username: line.name, password: line.password });
      await put('endpoint', line.name, { ...CALL_MY_LINE_ENDPOINT, context: 'live-line', auth: line.name, callerid: '"Live call" <live>' });
    },
    async close(name) {
      await remove('endpoint', name);
      await remove('auth', name);
    },
    async list() {
      const endpoints = await http.json<Array<{ resource: string }>>('GET', '/endpoints/PJSIP');
      return endpoints.map((e) => e.resource);
    },
  };
}
