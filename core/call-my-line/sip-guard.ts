// What the Call my line proxy lets through from a browser to Asterisk, one SIP message at a
// time (RFC 7118 puts exactly one message in each WebSocket frame).

/** A browser's call needs these; REGISTER, SUBSCRIBE, MESSAGE, REFER… have no business here. */
const ALLOWED = new Set(['INVITE', 'ACK', 'BYE', 'CANCEL', 'OPTIONS', 'UPDATE', 'PRACK', 'INFO']);

export type GuardVerdict = { forward: true; callId?: string } | { forward: false; reply: string | null; reason: string };

/**
 * Forward or refuse one frame. `call` is the Call-ID of the connection's call, once its first
 * INVITE has gone: one call per set of credentials, so an initial INVITE (no To tag) of any
 * other Call-ID, a second simultaneous call on the same socket, is refused here, whatever
 * Asterisk would do with it. (The INVITE re-sent with digest credentials keeps its Call-ID.)
 */
export function inspectSip(frame: string, call: string | undefined): GuardVerdict {
  const eol = frame.indexOf('\r\n');
  const first = eol < 0 ? frame : frame.slice(0, eol);
  if (first.startsWith('SIP/2.0 ')) return { forward: true }; // a response to Asterisk's request
  const m = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(first);
  if (!m) return { forward: false, reply: null, reason: 'not a SIP request' };
  const method = m[1]!;
  if (!ALLOWED.has(method)) return { forward: false, reply: sipResponse(frame, 405, 'Method Not Allowed'), reason: `${method} is not part of a test call` };
  if (method !== 'INVITE' || /;\s*tag=/i.test(header(frame, 'to', 't') ?? '')) return { forward: true };
  const callId = header(frame, 'call-id', 'i');
  if (!callId) return { forward: false, reply: null, reason: 'an INVITE without a Call-ID' };
  if (call !== undefined && callId !== call) return { forward: false, reply: sipResponse(frame, 403, 'One test call at a time'), reason: 'a second call on one Call my line connection' };
  return { forward: true, callId };
}

/** The first value of a header, by its full or compact name (RFC 3261 §7.3.3). */
function header(frame: string, name: string, compact: string): string | undefined {
  const head = frame.split('\r\n\r\n')[0]!.split('\r\n').slice(1);
  for (const line of head) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const n = line.slice(0, colon).trim().toLowerCase();
    if (n === name || n === compact) return line.slice(colon + 1).trim();
  }
  return undefined;
}

/** A final response to `request` (RFC 3261 §8.2.6): its Via, From, Call-ID and CSeq, To with a tag. */
export function sipResponse(request: string, status: number, phrase: string): string | null {
  const lines = request.split('\r\n\r\n')[0]!.split('\r\n').slice(1);
  const pick = (name: string, compact: string) => lines.filter((l) => {
    const n = l.slice(0, l.indexOf(':')).trim().toLowerCase();
    return n === name || n === compact;
  });
  const via = pick('via', 'v');
  const from = pick('from', 'f')[0];
  const to = pick('to', 't')[0];
  const callId = pick('call-id', 'i')[0];
  const cseq = pick('cseq', 'cseq')[0];
  if (!via.length || !from || !to || !callId || !cseq) return null;
  const tagged = /;\s*tag=/i.test(to) ? to : `${to};tag=${Math.random().toString(36).slice(2, 10)}`;
  return [`SIP/2.0 ${status} ${phrase}`, ...via, from, tagged, callId, cseq, 'Content-Length: 0', '', ''].join('\r\n');
}
