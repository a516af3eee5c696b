import { waitUntil } from '../helpers/wait.js';
import type { OwnerCall, OwnerPhone } from './owner-phone.js';

// The called party of a call-back the box places (issue 56), on the SIPp phone at the trunk's
// far end (owner-phone.ts): what they say until the box speaks, and what their phone showed.
// Shared by the dialler's test, the sweep's end-to-end test and bench/call-back-first-words.ts.

/**
 * The phone sends `sound` again and again until it hears the box speak: the bridge drops what
 * arrives before it carries media, so a single "Hello?" could be lost. Returns when the box spoke.
 * `everyMs` wider than the box's pause before it speaks keeps a second one from being said over
 * the opening (always within the 5 s after which silence means a machine).
 */
export function untilSpokenTo(call: OwnerCall, sound: Int16Array, everyMs = 800): Promise<number> {
  return waitUntil(async () => {
    const heard = call.media.firstSoundAfter(call.invitedAt);
    if (heard !== undefined) return heard;
    await call.media.say(sound);
    throw new Error('the box has not spoken yet');
  }, 60_000, everyMs);
}

/** From's display name and number as the phone saw them on the INVITE that rang `to`. */
export async function shownTo(phone: OwnerPhone, to: string): Promise<{ name: string | undefined; number: string | undefined }> {
  const from = (await phone.inviteHeaders(to)).get('from') ?? [];
  const m = /^(?:"([^"]*)"\s*)?<sip:([^@>]+)@/.exec(from[0] ?? '');
  return { name: m?.[1], number: m?.[2] };
}
