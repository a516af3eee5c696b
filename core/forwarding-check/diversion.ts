import { toE164 } from '../../contract/phone.js';
import type { ForwardingCondition } from '../../contract/schemas/forwarding-check.js';

// The SIP Diversion header (RFC 5806), which UK carriers add when a line forwards a call:
//   Diversion: <sip:+441134960000@carrier.example>;reason=no-answer;counter=1
// One header may list several diversions, comma-separated, and a call forwarded twice may carry
// several headers: the topmost entry is the latest diversion, the one that reached this box.
// Its reason tells which condition the owner's line forwarded on. (History-Info, RFC 7044, says
// the same in another shape; a carrier that sends only that gives no Diversion, hence null.)

export interface Diversion {
  /** The diverting number, E.164 when it reads as a phone number, else the URI's user part as sent. */
  number: string | null;
  /** The reason parameter as sent (lower case), e.g. "no-answer"; null without one. */
  reason: string | null;
  condition: ForwardingCondition;
}

const CONDITION_OF_REASON: Record<string, ForwardingCondition> = {
  unconditional: 'all-calls',
  'no-answer': 'unanswered',
  'user-busy': 'busy',
  // Mobiles' "when unreachable" (**62*) arrives as unavailable (or out-of-service from some networks).
  unavailable: 'unreachable',
  'out-of-service': 'unreachable',
};

/** Splits on commas outside <…> and "…": a display name or URI may hold a comma. */
function entries(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && c === '<') depth++;
    else if (!quoted && c === '>') depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && c === ',') {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out.map((e) => e.trim()).filter(Boolean);
}

function parseEntry(entry: string): Diversion {
  // The parameters follow the URI's closing ">" (or, without brackets, the first ";").
  const close = entry.lastIndexOf('>');
  const uri = close >= 0 ? entry.slice(entry.indexOf('<') + 1, close) : entry.split(';')[0]!;
  const params = (close >= 0 ? entry.slice(close + 1) : entry.slice(uri.length)).split(';').slice(1);
  let reason: string | null = null;
  for (const p of params) {
    const [name, ...rest] = p.split('=');
    if (name?.trim().toLowerCase() === 'reason') reason = rest.join('=').trim().replace(/^"(.*)"$/, '$1').toLowerCase() || null;
  }
  const user = /^(?:sips?|tel):([^@;>]+)/i.exec(uri.trim())?.[1] ?? null;
  const number = user ? (toE164(decodeURIComponent(user)) ?? user) : null;
  return { number, reason, condition: (reason ? CONDITION_OF_REASON[reason] : undefined) ?? 'unknown' };
}

/**
 * The latest diversion among the Diversion header values given (each one header's value, top
 * first), or null when there is none. Pure: pbx/ reads the header, this reads its meaning.
 */
export function latestDiversion(headers: readonly (string | null | undefined)[]): Diversion | null {
  for (const h of headers) {
    const first = h ? entries(h)[0] : undefined;
    if (first) return parseEntry(first);
  }
  return null;
}
