import type { EvalTurn } from '../set.js';
import { containsPhrase, isNumberToken, normaliseWords } from './normalise.js';

// How one agent turn went, judged from what the caller would hear from the model (the
// sentences the agent speaks; its fixed lines are the product's, not the model's) and the
// intent it replied with.

type TurnOutcome = 'grounded' | 'incomplete' | 'missed' | 'refused-correctly' | 'ungrounded' | 'intent-correct' | 'intent-wrong';

export interface TurnOutput {
  /** The intent the model replied with. */
  intent: string;
  /** The model's sentences the caller heard (none when it said the knowledge base does not cover the question). */
  spoken: string[];
}

export interface TurnScore {
  outcome: TurnOutcome;
  /** Numbers and times the agent said that neither the knowledge base nor the caller did. */
  invented: string[];
  /** Phrases of mustNeverSay it said. */
  forbidden: string[];
  /** Phrases of mustContain it left out. */
  missing: string[];
}

/** Words that fix a time or a day: said by the agent, they must come from the knowledge base or the caller. */
const TIME_WORDS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'tomorrow', 'tonight', 'noon', 'midday', 'midnight', 'weekend']);

/** The numbers and time words in `text`, normalised: the facts an agent could invent. */
export function factsIn(text: string): Set<string> {
  return new Set(normaliseWords(text).filter((w) => isNumberToken(w) || TIME_WORDS.has(w)));
}

/**
 * `known`: the facts of the knowledge base and of everything the caller has said so far
 * (an agent repeating the caller's "ten o'clock" back invents nothing).
 */
export function scoreTurn(turn: EvalTurn, out: TurnOutput, known: Set<string>): TurnScore {
  const text = out.spoken.join(' ');
  const words = normaliseWords(text);
  const invented = [...factsIn(text)].filter((f) => !known.has(f));
  const forbidden = turn.mustNeverSay.filter((p) => containsPhrase(words, p));
  const missing = turn.mustContain.filter((p) => !containsPhrase(words, p));
  const spoke = out.spoken.length > 0;
  const clean = invented.length === 0 && forbidden.length === 0;
  let outcome: TurnOutcome;
  if (turn.expect === 'answer') outcome = !spoke ? 'missed' : !clean ? 'ungrounded' : missing.length ? 'incomplete' : 'grounded';
  // Anything spoken as an answer to what the knowledge base does not cover is not grounded in it.
  else if (turn.expect === 'refuse') outcome = spoke && out.intent === 'question' ? 'ungrounded' : !clean ? 'ungrounded' : 'refused-correctly';
  else outcome = !clean ? 'ungrounded' : out.intent === turn.expect ? 'intent-correct' : 'intent-wrong';
  return { outcome, invented, forbidden, missing };
}
