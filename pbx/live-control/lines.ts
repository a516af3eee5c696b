import type { LiveLineEndpoints } from '../../core/ports/live-listen.js';
import { createDynamicEndpoints } from '../browser-lines/dynamic-endpoint.js';
import { CALL_MY_LINE_ENDPOINT } from '../call-my-line/lines.js';

/**
 * The live calls' browser lines on Asterisk (issue 54): per-line endpoints over ARI's dynamic
 * configuration (pbx/browser-lines/dynamic-endpoint.ts), as Call my line's (pbx/call-my-line/
 * lines.ts says why), with its WebRTC settings (ulaw and alaw only: a listen or a take-over adds
 * no transcoding to a call from the trunk) but the context [live-line], which rings only the
 * core's app: what a line is bridged to is the core's to decide (live-control.ts), never the
 * browser's.
 */
export function createLiveLineEndpoints(ari: { url: string; username: string; password: string }): LiveLineEndpoints {
  return createDynamicEndpoints(ari, { settings: { ...CALL_MY_LINE_ENDPOINT, context: 'live-line' }, perLine: () => ({ callerid: '"Live call" <live>' }) });
}
