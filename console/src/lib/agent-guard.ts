import type { ApiEngines } from '../../../contract/api';
import { secondsText } from '../../../contract/seconds';

/**
 * The admin dashboard's line on this node's slow-box guard (issue 60 item 4), or null while it is
 * open (nothing to say). `time` formats when it paused in the admin's clock (e.g. "14:05").
 */
export function agentGuardLine(g: ApiEngines['agentGuard'], time: (iso: string) => string): string | null {
  if (g.state === 'open') return null;
  const took = g.p50Ms === undefined ? 'the assistant is too slow to start answering' : `the assistant took ${secondsText(g.p50Ms, 'up')} to start answering`;
  return (
    `Agent mode paused on this node: ${took} (limit ${secondsText(g.limitMs)}). ` +
    `New agent-mode calls are answered in voicemail mode with each owner's greeting until it recovers by itself.${g.since ? ` Paused since ${time(g.since)}.` : ''}`
  );
}
