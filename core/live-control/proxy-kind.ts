import type { SipLineKind } from '../call-my-line/ws-proxy.js';
import type { LiveLineRegistry } from './line-registry.js';
import { LIVE_LINE_WS_PREFIX } from './routes.js';

/** The live calls' lines as the SIP WebSocket proxy carries them (beside Call my line's). */
export function liveLineKind(lines: LiveLineRegistry): SipLineKind {
  return {
    prefix: LIVE_LINE_WS_PREFIX,
    name: /^lt-[0-9a-f]{1,64}$/,
    claim: (name, userId) => lines.claim(name, userId),
    release: (name) => lines.release(name),
    closeAll: () => lines.closeAll(),
    badName: 'This is not a live call’s line: press Listen or Take over again.',
    expired: 'These line details have expired or were used: press Listen or Take over again.',
  };
}
