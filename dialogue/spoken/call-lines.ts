import type { AccountStatus } from '../../contract/api.js';
import { englishOnly } from '../language/catalogue/en.js';
import { render } from '../language/render.js';

// What callers hear outside the greeting, in English (the words: dialogue/language/catalogue/en.ts).
// The image's built-in sounds (./sounds.ts) are the fallback when the TTS engine fails, so no
// branch ends in silence.

const lines = englishOnly.voicemail;

export const THANK_YOU = lines.thankYou;
export const NO_MESSAGE_GOODBYE = lines.noMessageGoodbye;
export const NOT_IN_SERVICE = lines.notInService;

/** Spoken when the business exists but its account cannot take calls (the call is logged as missed). */
export function unavailableMessage(reason: Exclude<AccountStatus, 'active'>, businessName: string | null): string {
  const business = businessName?.trim();
  const thanks = business ? render(lines.thanksNamed, { business }) : lines.thanks;
  return render(reason === 'pending_approval' ? lines.pendingApproval : lines.unavailable, { thanks });
}

/** A caller on the owner's block list. */
export const REFUSED = lines.refused;
/** A withheld number, when the owner refuses them. */
export const WITHHELD_REFUSED = lines.withheldRefused;
