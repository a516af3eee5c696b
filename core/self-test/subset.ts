import { spread, type EvalConversation, type EvalMessage, type EvalSet } from '../quality/evaluation/set.js';

// The part of the evaluation set the box runs on itself: the one place that names it. A few
// minutes on a small box rather than the whole set's hour, still every kind of entry: the
// messages spread evenly over the set (every voice, speed and noise), the conversations taken
// every seventh (plumber, salon, dentist, garage, vet, heating engineer)
// until they hold the turns asked for. Whole conversations only: a turn needs the ones before it.

const SELF_TEST_MESSAGES = 10;
const SELF_TEST_TURNS = 10;
/** Every seventh conversation: the set lists each business's eight conversations together, so each business is met. */
const CONVERSATION_STRIDE = 7;

export function selfTestSubset(set: EvalSet, messages = SELF_TEST_MESSAGES, turns = SELF_TEST_TURNS): EvalSet {
  const conversations: EvalConversation[] = [];
  let held = 0;
  for (let start = 0; start < CONVERSATION_STRIDE && held < turns; start++) {
    for (let i = start; i < set.conversations.length && held < turns; i += CONVERSATION_STRIDE) {
      const c = set.conversations[i]!;
      conversations.push(c);
      held += c.turns.length;
    }
  }
  return { messages: spread(set.messages, messages) as EvalMessage[], conversations };
}
