// The agent's prompt in tokens (issue 61 item 4): a heating engineer's 2,000-word knowledge
// base (the evaluation's, eval/set/conversations.json), at a caller's first turn and sixth,
// split into the fixed system part, the knowledge base and the history, with every entry sent
// (as before) beside what the product sends now (fixed facts in the prefix, the turn's
// entries after the history). Also: the tokens each turn adds past what the engine read the
// turn before (its prompt cache), whether each evaluation turn's facts were in the prompt it
// sent, and the selection's own time. Tokens are estimated (dialogue/agent/token-estimate.ts:
// characters / 4). Prints figures; asserts nothing. Run: npx tsx bench/agent-prompt-size.ts
import type { ChatMessage } from '../models/llm/language-model.js';
import { agentTurnMessages, buildAgentSystemPrompt } from '../dialogue/agent/agent-prompt.js';
import { estimateTokens } from '../models/llm/token-estimate.js';
import { loadEvalSet } from '../core/quality/evaluation/set.js';
import { containsPhrase, normaliseWords } from '../core/quality/evaluation/score/normalise.js';
import { machine, percentile, report } from './lib/report.js';

const set = await loadEvalSet();
const heating = set.conversations.find((c) => c.business === 'heating');
if (!heating) throw new Error('eval/set/conversations.json has no "heating" business: the 2,000-word knowledge base this bench measures');
const input = { businessName: heating.businessName, knowledgeBase: heating.knowledgeBase };
const system = buildAgentSystemPrompt(input);
const words = heating.knowledgeBase.split(/\s+/).filter((w) => w && !/^[QA]:$/.test(w)).length;

// Six turns a caller might take, with replies of the length the agent gives (three short sentences at most).
const CALL: [string, string][] = [
  ['Hi, my boiler keeps losing pressure, can someone come and look at it?', 'Most combi boilers should show between 1 and 1.5 bar when cold. If the pressure keeps dropping there is probably a leak, and an engineer should look at it.'],
  ['How much would that cost?', 'Our labour rate is £65 per hour including VAT, and parts are charged on top. The first visit finds the fault.'],
  ['Do you cover Rotherham?', 'Yes, we cover Sheffield, Rotherham, Barnsley and Chesterfield.'],
  ['Do I need to be in when the engineer comes?', 'Someone over 18 needs to be at home to let the engineer in, or a neighbour if you tell the office beforehand.'],
  ['Is the boiler covered by any plan?', 'Our Hartley Care plan is £16 a month and includes the annual service, call-outs and labour for repairs.'],
  ["I live in a residents' permit zone. Where will your engineer park?", ''],
];

const historyBefore = (turn: number): ChatMessage[] =>
  CALL.slice(0, turn - 1).flatMap(([caller, answer]) => [
    { role: 'user' as const, content: caller },
    { role: 'assistant' as const, content: JSON.stringify({ intent: 'question', answered: true, answer }) },
  ]);

const everyEntry = (history: ChatMessage[], said: string): ChatMessage[] => [{ role: 'system', content: system }, ...history, { role: 'user', content: said }];
const selected = (history: ChatMessage[], said: string): ChatMessage[] => agentTurnMessages(system, history, said);

/** The prompt as the engine reads it: one block per message, a caller's consecutive messages joined (as Ollama's chat template does). */
function rendered(messages: ChatMessage[]): string {
  const blocks: { role: string; text: string }[] = [];
  for (const m of messages) {
    const last = blocks.at(-1);
    if (last && last.role === m.role) last.text += `\n\n${m.content}`;
    else blocks.push({ role: m.role, text: m.content });
  }
  return blocks.map((b) => `<|${b.role}|>\n${b.text}\n`).join('');
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

interface Parts {
  fixedSystem: number;
  knowledge: number;
  history: number;
  caller: number;
  total: number;
  newThisTurn: number;
}

/** The knowledge-base lines of a system prompt (between its header and the rules) and of a turn's entries message (after its header). */
function knowledgeIn(text: string, where: 'system' | 'turn'): string {
  if (where === 'turn') return text.slice(text.indexOf('\n') + 1);
  const from = text.indexOf('\n', text.indexOf('KNOWLEDGE BASE (')) + 1;
  const rules = text.indexOf('\n\nRULES:');
  const tail = text.indexOf('\n\nFROM THE KNOWLEDGE BASE');
  return text.slice(from, rules) + (tail >= 0 ? text.slice(tail) : '');
}

function parts(kind: 'every entry' | 'selected', turn: number): Parts {
  const build = kind === 'every entry' ? everyEntry : selected;
  const [said] = CALL[turn - 1]!;
  const history = historyBefore(turn);
  const messages = build(history, said);
  const previous = turn > 1 ? build(historyBefore(turn - 1), CALL[turn - 2]![0]) : [];
  const text = rendered(messages);
  const systemText = messages[0]!.content;
  const turnEntries = kind === 'selected' ? messages.at(-2)!.content : '';
  const kb = estimateTokens(knowledgeIn(systemText, 'system')) + (turnEntries ? estimateTokens(knowledgeIn(turnEntries, 'turn')) : 0);
  const historyTokens = estimateTokens(history.map((m) => m.content).join('\n'));
  const callerTokens = estimateTokens(said);
  const total = estimateTokens(text);
  return {
    fixedSystem: estimateTokens(systemText) - estimateTokens(knowledgeIn(systemText, 'system')),
    knowledge: kb,
    history: historyTokens,
    caller: callerTokens,
    total,
    newThisTurn: total - Math.floor(commonPrefix(text, rendered(previous)) / 4),
  };
}

console.log(`knowledge base: "${heating.businessName}", ${words} words, ${estimateTokens(heating.knowledgeBase)} tokens as written (estimate: characters / 4)`);
const line = (p: Parts) => `fixed system ${p.fixedSystem} + knowledge base ${p.knowledge} + history ${p.history} + caller ${p.caller} (+ message framing) = ${p.total} tokens; new this turn ${p.newThisTurn}`;
for (const turn of [1, 6]) {
  for (const kind of ['every entry', 'selected'] as const) {
    const p = parts(kind, turn);
    console.log(`turn ${turn}, ${kind.padEnd(11)}: ${line(p)}`);
    report({ bench: 'agent prompt', measure: `2,000-word knowledge base, turn ${turn}, ${kind === 'every entry' ? 'every entry sent (before)' : 'fixed facts + the turn\'s entries (after)'}: fixed system / knowledge base / history / whole prompt / new this turn, tokens`, value: `${p.fixedSystem} / ${p.knowledge} / ${p.history} / ${p.total} / ${p.newThisTurn}` });
  }
}

// Were the facts each evaluation turn needs in the prompt the product sent? (The replies in
// the history are the right answers, as a perfect model would give.)
for (const kind of ['every entry', 'selected'] as const) {
  let held = 0;
  let answerTurns = 0;
  const missed: string[] = [];
  for (const c of set.conversations) {
    const sys = buildAgentSystemPrompt({ businessName: c.businessName, knowledgeBase: c.knowledgeBase });
    const history: ChatMessage[] = [];
    for (const t of c.turns) {
      const messages = kind === 'every entry' ? [{ role: 'system' as const, content: sys }, ...history, { role: 'user' as const, content: t.caller }] : agentTurnMessages(sys, history, t.caller);
      if (t.expect === 'answer') {
        answerTurns++;
        const prompt = normaliseWords(messages.slice(0, -1).map((m) => m.content).join('\n'));
        if (t.mustContain.every((p) => containsPhrase(prompt, p))) held++;
        else missed.push(`${c.id}: ${t.caller}`);
      }
      history.push({ role: 'user', content: t.caller }, { role: 'assistant', content: JSON.stringify({ intent: 'question', answered: t.expect === 'answer', answer: t.mustContain.join('. ') }) });
    }
  }
  console.log(`evaluation answer turns with every fact they need in the prompt, ${kind}: ${held}/${answerTurns}${missed.length ? `; missing: ${missed.join(' | ')}` : ''}`);
  report({ bench: 'agent prompt', measure: `evaluation answer turns whose facts were in the prompt sent, ${kind === 'every entry' ? 'every entry (before)' : 'selected (after)'}`, value: `${held}/${answerTurns}` });
}

// What picking the entries costs a turn (parsing the entries back and scoring them all).
const samples: number[] = [];
const questions = set.conversations.filter((c) => c.business === 'heating').flatMap((c) => c.turns.map((t) => t.caller));
for (let i = 0; i < 2000; i++) {
  const t = performance.now();
  agentTurnMessages(system, historyBefore(6), questions[i % questions.length]!);
  samples.push(performance.now() - t);
}
const ms = (p: number) => percentile(samples.slice(200), p).toFixed(2);
console.log(`selection per turn (2,000-word knowledge base, 5 turns of history): p50 ${ms(50)} ms, p95 ${ms(95)} ms`);
report({ bench: 'agent prompt', measure: 'picking a turn\'s entries from the 2,000-word knowledge base, p50 / p95', value: `${ms(50)} / ${ms(95)} ms` });
console.log(`\nMachine: ${machine()}`);
