import { TEST_CALL_ENDPOINT_PREFIX } from './registry.js';

/**
 * The core's own check of a call Asterisk puts into Stasis, whatever the dialplan decided
 * (defence in depth behind extensions.conf [test-call]): a call from a test-call endpoint is a
 * test call of that endpoint's owner, to that owner's number, or it is refused. The endpoint is
 * read from the channel's name, which Asterisk gives from the endpoint that authenticated
 * (PJSIP/<endpoint>-<sequence>), not from anything the caller wrote; the Stasis arguments are
 * the caller's text (a crafted number once split them, turning a test call into an ordinary
 * call to another owner).
 */
export type TestCallAdmission =
  | { kind: 'ordinary' }
  | { kind: 'test-call'; userId: number; did: string }
  | { kind: 'refused'; reason: string };

const TEST_CALL_CHANNEL = new RegExp(`^PJSIP/(${TEST_CALL_ENDPOINT_PREFIX}[^/]+)-[0-9a-f]+$`);

/** `PJSIP/tc-…-00000001` → `tc-…`; undefined for a channel of any other endpoint. */
export function testCallEndpointOf(channelName: string): string | undefined {
  return TEST_CALL_CHANNEL.exec(channelName)?.[1];
}

export function admitTestCall(
  call: { channelName: string; did: string; markedTestCall: boolean },
  lineOf: (endpoint: string) => { userId: number; did: string } | undefined,
): TestCallAdmission {
  const endpoint = testCallEndpointOf(call.channelName);
  if (endpoint === undefined) {
    // Only [test-call] marks a call so, and only test-call endpoints reach it.
    return call.markedTestCall ? { kind: 'refused', reason: 'marked a test call but not from a test-call endpoint' } : { kind: 'ordinary' };
  }
  const line = lineOf(endpoint);
  if (!line) return { kind: 'refused', reason: 'from a test-call endpoint this core has not connected through its proxy' };
  if (call.did !== line.did) return { kind: 'refused', reason: 'to a number that is not the endpoint owner’s' };
  return { kind: 'test-call', userId: line.userId, did: line.did };
}
