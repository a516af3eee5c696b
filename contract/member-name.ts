// How a team member is named to anyone but the owner (issue 58): callers hear it, members read
// it in texts, Call Details shows it in a call's routing note. Pure; shared by core, pbx and
// dialogue.

/**
 * The name the owner's own team member is made with (core/team/store.ts). Accounts hold no
 * personal name, so it stands in until the owner gives theirs on the Team page: a label, never
 * a name to say to a caller ("putting you through to Owner").
 */
export const OWNER_MEMBER_DEFAULT_NAME = 'Owner';

/** What callers hear and texts say for the owner's member while it has no name of its own. */
const THE_OWNER = 'the owner';

/** A member's name as said or written to others: their name, or "the owner" for the owner's unnamed member. */
export function spokenNameOf(member: { name: string; isOwner: boolean }): string {
  return member.isOwner && member.name.trim() === OWNER_MEMBER_DEFAULT_NAME ? THE_OWNER : member.name;
}

/** A sentence that may begin with a spoken name ("the owner isn't working right now"), begun with a capital. */
export function sentenceStart(sentence: string): string {
  return sentence.charAt(0).toLocaleUpperCase('en-GB') + sentence.slice(1);
}
