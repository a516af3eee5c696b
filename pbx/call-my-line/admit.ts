import { CALL_MY_LINE_ENDPOINT_PREFIX } from '../../core/ports/call-my-line.js';

/**
 * The core's own check of a call Asterisk puts into Stasis, whatever the dialplan decided
 * (defence in depth behind extensions.conf [test-call]): a call from a Call my line endpoint is a
 * test call of that endpoint's owner, to that owner's number, or it is refused. The endpoint is
 * read from the channel's name, which Asterisk gives from the endpoint that authenticated
 * (PJSIP/<endpoint>-<sequence>), not from anything the caller wrote; the Stasis arguments are
 * the caller's text (a crafted number once split them, turning a test call into an ordinary
 * call to another owner).
 */
export type CallMyLineAdmission =
  | { kind: 'ordinary' }
  | { kind: 'call-my-line'; userId: number; did: string }
  | { kind: 'refused'; reason: string };

const CALL_MY_LINE_CHANNEL = new RegExp(`^PJSIP/(${CALL_MY_LINE_ENDPOINT_PREFIX}[^/]+)-[0-9a-f]+$`);

/** `PJSIP/tc-…-00000001` → `tc-…`; undefined for a channel of any other endpoint. */
export function callMyLineEndpointOf(channelName: string): string | undefined {
  return CALL_MY_LINE_CHANNEL.exec(channelName)?.[1];
}

export function admitCallMyLine(
  call: { channelName: string; did: string; markedCallMyLine: boolean },
  lineOf: (endpoint: string) => { userId: number; did: string } | undefined,
): CallMyLineAdmission {
  const endpoint = callMyLineEndpointOf(call.channelName);
  if (endpoint === undefined) {
    // Only [test-call] marks a call so, and only Call my line endpoints reach it.
    return call.markedCallMyLine ? { kind: 'refused', reason: 'marked a test call but not from a Call my line endpoint' } : { kind: 'ordinary' };
  }
  const line = lineOf(endpoint);
  if (!line) return { kind: 'refused', reason: 'from a Call my line endpoint this core has not connected through its proxy' };
  if (call.did !== line.did) return { kind: 'refused', reason: 'to a number that is not the endpoint owner’s' };
  return { kind: 'call-my-line', userId: line.userId, did: line.did };
}
