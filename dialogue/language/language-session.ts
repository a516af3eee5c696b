import { decideLanguage, DEFAULT_LANGUAGE_POLICY, type HeardLanguage, type LanguageDecision, type LanguagePolicy } from './detection.js';
import { fixedLines, type FixedLines } from './fixed-lines.js';
import { normaliseAllowList, type LanguageCode } from './languages.js';

/**
 * One call's language: the one the agent answers in now, the rule that changes it, and the
 * words that follow from it (the fixed lines, the system prompt, built once per language).
 * The conversation holds one and asks it after every transcribed turn.
 */
export class LanguageSession {
  private lang: LanguageCode = 'en';
  private readonly policy: LanguagePolicy;
  private readonly prompts = new Map<LanguageCode, string>();

  constructor(
    allowed: readonly string[] | null | undefined,
    private readonly buildPrompt: (language: LanguageCode) => string,
    policy: Partial<Omit<LanguagePolicy, 'allowed'>> = {},
  ) {
    this.policy = { ...DEFAULT_LANGUAGE_POLICY, ...policy, allowed: normaliseAllowList(allowed) };
  }

  get current(): LanguageCode {
    return this.lang;
  }

  /** The owner's allow-list, English first. */
  get allowed(): readonly LanguageCode[] {
    return this.policy.allowed;
  }

  /** Whether speech-to-text should detect the language: not for an owner who allows English only. */
  get detects(): boolean {
    return this.policy.allowed.length > 1;
  }

  get lines(): FixedLines {
    return fixedLines(this.lang);
  }

  get system(): string {
    let p = this.prompts.get(this.lang);
    if (p === undefined) this.prompts.set(this.lang, (p = this.buildPrompt(this.lang)));
    return p;
  }

  /** A transcribed turn: the language changes if the rule says so (detection.ts). */
  hear(text: string, heard: HeardLanguage): LanguageDecision {
    const d = decideLanguage(this.lang, text, heard, this.policy);
    this.lang = d.language;
    return d;
  }
}
