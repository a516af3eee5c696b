import type { Catalogue } from './catalogue/catalogue.js';
import { CATALOGUES } from './catalogues.js';
import type { LanguageCode } from './languages.js';
import { render } from './render.js';

// The agent's fixed lines in a caller's language, from its catalogue (catalogue/<code>.ts),
// written by the project, never by the model at call time: the disclosure, the admission of
// not knowing and the voicemail offer must be said the same, correct way every time.

export interface FixedLines {
  lines: Catalogue['agent'];
  /** The greeting, with the disclosure (automated assistant, call recorded), for a business name or none. */
  greeting(businessName: string | null | undefined): string;
  /**
   * The greeting's disclosure sentence alone (automated assistant, call recorded): said after
   * an owner's own recorded greeting line, which the project cannot check says it.
   */
  disclosure: string;
  goodbye(businessName: string | null | undefined): string;
  /** Said, in the language asked for, when a caller asks for it ("Do you speak Polish?"). */
  switched: string;
  /** The team member the caller asked for cannot be put through now: a message for them is taken. */
  personNotAvailable(name: string): string;
  /** The owner takes the call over (issue 54): the agent's last line, naming who takes it. */
  handover(name: string): string;
}

function fromCatalogue({ agent, call, person }: Catalogue): FixedLines {
  const { disclosure } = call;
  const named = (n: string | null | undefined) => n?.trim() || undefined;
  return {
    lines: agent,
    greeting(n) {
      const business = named(n);
      return business ? render(call.greetingNamed, { business, disclosure }) : render(call.greeting, { disclosure });
    },
    disclosure,
    goodbye(n) {
      const business = named(n);
      return business ? render(call.goodbyeNamed, { business }) : render(call.goodbye);
    },
    switched: call.switched,
    personNotAvailable: (name) => render(person.notAvailable, { name }),
    handover: (name) => render(person.handover, { name }),
  };
}

const FIXED = new Map<LanguageCode, FixedLines>();

/** The fixed lines a caller answered in `language` hears. */
export function fixedLines(language: LanguageCode): FixedLines {
  let f = FIXED.get(language);
  if (!f) FIXED.set(language, (f = fromCatalogue(CATALOGUES[language])));
  return f;
}
