import type { LEG_PRESENTS } from '../../../contract/enums.js';
import { toE164 } from '../../../contract/phone.js';
import { isWithheldCaller } from '../../../contract/withheld.js';

// Who a call the box places to a person's phone says it is from (a put-through, ring the team
// first, the voicemail menu; docs/calls.md, "What a person's phone shows"). The one place this
// is decided.
//
// UK calling line identity has two numbers (Ofcom's CLI guidance, General Condition C6): the
// Network Number, which says where the call entered the public network and must be a number
// the originating customer holds, and the Presentation Number, the one the called person sees.
// UK SIP interconnects carry the first in P-Asserted-Identity and the second in From. A
// forwarded call may present the original caller's number as long as the forwarding line is
// the Network Number; a caller who withheld their number is never shown, whoever forwards.
// So with `caller`, From carries the caller's number, P-Asserted-Identity the appliance number
// that was called (a number on the trunk's account), and Diversion (RFC 5806) the same number:
// the header carriers that accept forwarded calls check against their customer's numbers.
// With `called` (the default: a trunk such as Twilio's refuses a From that is not one of its
// account's numbers, error 32204) only the appliance number is sent, as before.
// The display name is the business's in both, so whoever picks up knows it is a work call.

export type LegPresents = (typeof LEG_PRESENTS)[number];

export interface LegCallerId {
  /** ARI originate's callerId, `"name" <number>`: Asterisk puts both in the INVITE's From. */
  callerId: string;
  /** Channel variables for the originate: headers added to the INVITE (PJSIP_HEADER). */
  variables: Record<string, string>;
}

/** A display name Asterisk's `"name" <number>` parser and a SIP quoted-string both keep as it is. */
export function displayName(businessName: string | null): string {
  return (businessName ?? '')
    .replace(/["\\<>\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60)
    .trim();
}

export function legCallerId(o: {
  presents: LegPresents;
  businessName: string | null;
  /** The appliance number the caller dialled (E.164). */
  did: string;
  /** The caller's number as the trunk gave it ("anonymous" when withheld). */
  callerNumber: string;
  /** Asterisk's CALLERID(pres) of the caller's channel; null when it could not be read. */
  callerPresentation: string | null;
}): LegCallerId {
  const name = displayName(o.businessName);
  const from = (number: string) => (name ? `"${name}" <${number}>` : number);
  const caller = toE164(o.callerNumber);
  // A number the caller kept private (Privacy: id, or a presentation Asterisk could not tell) stays private.
  const mayShowCaller = o.presents === 'caller' && caller !== null && !isWithheldCaller(o.callerNumber) && (o.callerPresentation ?? '').startsWith('allowed');
  if (!mayShowCaller || caller === o.did) return { callerId: from(o.did), variables: {} };
  return {
    callerId: from(caller),
    variables: {
      'PJSIP_HEADER(add,P-Asserted-Identity)': `<tel:${o.did}>`,
      'PJSIP_HEADER(add,Diversion)': `<tel:${o.did}>;reason=unconditional`,
    },
  };
}
