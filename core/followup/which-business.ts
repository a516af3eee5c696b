// When one phone gets the notifications of several businesses (one owner, two companies; an
// owner who also works in another business's team; one person in two teams) and the number
// texted does not say which, the reply names the business: "Acme Plumbing: DONE 12".
import type { STAFF_VIEWS } from '../../contract/enums.js';

export interface Business {
  id: number;
  businessName: string | null;
  email: string;
}

export type BusinessChoice = { kind: 'chosen'; id: number; body: string } | { kind: 'ask'; question: string };

const label = (b: Business) => b.businessName?.trim() || b.email;

/** Which of `candidates` a text is for, from a leading "<business name>:"; otherwise the question to ask (pure). */
export function chooseBusiness(candidates: readonly Business[], body: string): BusinessChoice {
  const prefixed = /^\s*([^:\n]+?)\s*:\s*([\s\S]*)$/.exec(body);
  if (prefixed) {
    const named = candidates.filter((b) => label(b).toLowerCase() === prefixed[1]!.toLowerCase());
    if (named.length === 1) return { kind: 'chosen', id: named[0]!.id, body: prefixed[2]! };
  }
  const names = candidates.map(label);
  const command = body.trim().split(/\s+/).slice(0, 2).join(' ') || 'HELP';
  return {
    kind: 'ask',
    question: `This number gets call notifications for ${names.length} businesses: ${names.join(', ')}. Which one is this for? Send it again starting with the business name and a colon, e.g. "${names[0]}: ${command}".`,
  };
}

/** Who a phone is in one business: its owner (member null) or a team member with their rights. */
export interface SenderRole {
  businessId: number;
  member: { id: number; name: string; view: (typeof STAFF_VIEWS)[number] } | null;
}

const rank = (r: SenderRole) => (r.member === null ? 0 : r.member.view === 'everything' ? 1 : 2);

/**
 * One role per business for a phone (pure): the owner's when the phone is theirs, else the
 * member's with the widest view (the earliest added on a tie), so one text never acts with the
 * rights of a narrower role the same phone also has. Businesses keep their first-seen order.
 */
export function widestRolePerBusiness<T extends SenderRole>(roles: readonly T[]): T[] {
  const best = new Map<number, T>();
  for (const r of roles) {
    const held = best.get(r.businessId);
    if (!held || rank(r) < rank(held) || (rank(r) === rank(held) && r.member !== null && held.member !== null && r.member.id < held.member.id)) {
      best.set(r.businessId, r);
    }
  }
  return [...best.values()];
}
