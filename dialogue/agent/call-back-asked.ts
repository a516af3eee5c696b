// "Can someone call me after four?", "ring me back tomorrow morning" (issue 56): whether the
// caller asks to be rung back. Pure, and deliberately narrow: a wish the agent misses is still
// taken as a message for the owner (today's behaviour), while a wish it invents would promise
// the caller a call nobody asked for. What the words say about *when* is not read here: the
// time is code's (core/call-backs/agreed-time.ts), from the same words.

/** Words after a bare "call me" that make it a request to be rung, not a name ("you can call me Dave"). */
const WHEN_OR_HOW = new Set([
  'back', 'later', 'after', 'at', 'around', 'about', 'tomorrow', 'today', 'tonight', 'this', 'on', 'in', 'when', 'whenever',
  'before', 'between', 'by', 'first', 'asap', 'as', 'please', 'sometime', 'some', 'next', 'any', 'soon', 'again', 'once',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'from',
]);

/** Someone is asked to do it ("can you", "could someone", "please", "I'd like you to"). */
const ASKING = /\b(can|could|would|will|please|pls|someone|somebody|anyone|to)\b/;

/** "don't call me back", "no need to ring me", "you needn't phone me": the opposite wish. */
const DECLINED = /\b(don'?t|do not|dont|no need to|needn'?t|never|not|won'?t|shouldn'?t)\b(\s+\S+){0,3}?\s+(call|ring|phone|bell)\b/;

/** The caller rang or was rung before ("why did you ring me?", "you called me back"): no new wish. */
const ALREADY = /\b(why|did|didn'?t|have you|you'?ve|has)\b(\s+\S+){0,3}?\s+(call|ring|phone)\s+(me|us)\b/;

const RING = '(?:call|ring|phone|bell)';

function sentenceAsks(original: string): boolean {
  const s = ` ${original.toLocaleLowerCase().replace(/[’‘]/g, "'").replace(/[^a-z0-9' -]+/g, ' ').replace(/\s+/g, ' ')} `;
  if (DECLINED.test(s) || ALREADY.test(s)) return false;
  if (new RegExp(`\\b${RING} (?:me|us) back\\b`).test(s)) return true;
  if (/\bgive (?:me|us) a (?:call|ring|bell|buzz)\b/.test(s)) return true;
  if (/\b(?:a|the|for a|your) (?:call ?back|callback|call-back|ring ?back)\b/.test(s)) return true;
  const bare = new RegExp(`\\b${RING} (?:me|us)\\b(?: (\\S+))?`).exec(s);
  if (!bare || !ASKING.test(s.slice(0, bare.index + 1))) return false;
  const next = bare[1];
  return next === undefined || WHEN_OR_HOW.has(next) || /^\d/.test(next);
}

/** Whether the caller's turn asks to be rung back, in any of its sentences. */
export function asksForCallBack(text: string): boolean {
  return text.split(/[.?!;]+/).some((sentence) => sentence.trim() !== '' && sentenceAsks(sentence));
}
