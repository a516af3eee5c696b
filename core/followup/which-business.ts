// When one phone gets the notifications of several businesses (one owner, two companies) and
// the number texted does not say which, the reply names the business: "Acme Plumbing: DONE 12".

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
