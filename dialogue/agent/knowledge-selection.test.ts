import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../models/llm/language-model.js';
import { agentTurnMessages, buildAgentSystemPrompt, buildAgentTurnMessages } from './agent-prompt.js';
import { askAgent } from './agent-responder.js';
import { FIXED_FACTS_TOKEN_BOUND, KNOWLEDGE_TOKEN_BOUND, TURN_ENTRIES_TOKEN_BOUND } from './knowledge-selection.js';
import { estimateTokens } from '../../models/llm/token-estimate.js';

// The evaluation's 2,000-word knowledge base of a heating engineer (eval/set/conversations.json).
const heating = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../eval/set/conversations.json'), 'utf8')) as { businesses: Record<string, { name: string; knowledgeBase: string }> }).businesses.heating!;
const input = { businessName: heating.name, knowledgeBase: heating.knowledgeBase };

const entriesSent = (messages: ChatMessage[]) => messages.at(-2)!.content;
const questionsIn = (text: string) => [...text.matchAll(/^\d+\. Q: (.+)$/gm)].map((m) => m[1]);

describe('a knowledge base over the bound: the entries a turn needs (issue 61)', () => {
  it('a question about parking gets the parking entries, and not the rest', () => {
    const sent = entriesSent(buildAgentTurnMessages(input, [], 'Is there anywhere to park near you?'));
    expect(questionsIn(sent)).toEqual(['Where will your engineer park?', 'Do you charge for parking?']);
  });

  it("a follow-up is matched with the caller's turn before it", () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'Do you do a boiler cover plan?' },
      { role: 'assistant', content: '{"intent":"question","answered":true,"answer":"Yes, our Hartley Care plan."}' },
    ];
    expect(questionsIn(entriesSent(buildAgentTurnMessages(input, history, 'How much is it a month?')))).toContain('Do you offer a boiler cover plan?');
  });

  it('the system prompt carries the fixed facts and stays byte for byte the same from turn to turn', () => {
    const first = buildAgentTurnMessages(input, [], 'What time do you open on Saturday?');
    const history: ChatMessage[] = [];
    for (const said of ['Hello', 'Do you fit heat pumps?', 'Is there a grant?', 'Where will you park?', 'Can I pay by card?']) {
      history.push({ role: 'user', content: said }, { role: 'assistant', content: '{"intent":"question","answered":true,"answer":"Yes."}' });
    }
    const sixth = buildAgentTurnMessages(input, history, 'How much is a power flush?');
    expect(sixth[0]).toEqual(first[0]);
    expect(first[0]!.content).toContain('What are your opening hours?');
    expect(first[0]!.content).toContain('Which areas do you cover?');
    expect(first[0]!.content).not.toContain('Where will your engineer park?');
    // The earlier turns follow the prefix unchanged; the entries come after them, the caller's words last, as said.
    expect(sixth.slice(1, 11)).toEqual(history);
    expect(questionsIn(entriesSent(sixth))).toContain('Can you power flush my central heating?');
    expect(sixth.at(-1)).toEqual({ role: 'user', content: 'How much is a power flush?' });
  });

  it('holds the bound: fixed facts and the entries sent together never pass it, whatever the caller says', () => {
    const fixed = buildAgentSystemPrompt(input);
    const fixedFacts = fixed.slice(fixed.indexOf('KNOWLEDGE BASE'), fixed.indexOf('\n\nRULES:'));
    expect(estimateTokens(fixedFacts)).toBeLessThanOrEqual(FIXED_FACTS_TOKEN_BOUND + 40); // + the two header lines
    // Words that match many entries: "fit", "boiler", "gas", "service", "price".
    const sent = entriesSent(buildAgentTurnMessages(input, [], 'Do you fit, service or repair gas boilers, and what are your prices for a boiler service, a new boiler and fitting?'));
    expect(questionsIn(sent).length).toBeGreaterThan(2);
    const entryLines = sent.slice(sent.indexOf('\n') + 1);
    expect(estimateTokens(entryLines)).toBeLessThanOrEqual(TURN_ENTRIES_TOKEN_BOUND);
    expect(FIXED_FACTS_TOKEN_BOUND + TURN_ENTRIES_TOKEN_BOUND).toBe(KNOWLEDGE_TOKEN_BOUND);
  });

  it('sends no entry for words that match none (a "yes please"), and says so', () => {
    const sent = entriesSent(buildAgentTurnMessages(input, [], 'Yes please.'));
    expect(questionsIn(sent)).toEqual([]);
    expect(sent).toContain('No other entry matches');
  });

  it('askAgent (the phone, the Try-it, the evaluation) sends the model the turn\'s entries, not the whole knowledge base', async () => {
    const sent: ChatMessage[][] = [];
    const streamer = {
      name: 'recording',
      async *stream(messages: ChatMessage[]) {
        sent.push(messages);
        yield '{"intent": "question", "answered": true, "answer": "Please get a visitor permit."}';
      },
    };
    for await (const ev of askAgent(streamer, { system: buildAgentSystemPrompt(input), history: [], callerText: 'Where will you park?' })) void ev;
    expect(sent).toHaveLength(1);
    const text = sent[0]!.map((m) => m.content).join('\n');
    expect(text).toContain('Where will your engineer park?');
    expect(text).not.toContain('Do you fit heat pumps?');
    expect(sent[0]!.at(-1)).toEqual({ role: 'user', content: 'Where will you park?' });
  });

  it('a caller answered in another language gets the whole knowledge base: the English entries share no words with theirs', () => {
    const messages = buildAgentTurnMessages({ ...input, language: 'pl' }, [], 'Gdzie zaparkuje wasz monter?');
    expect(messages).toHaveLength(2);
    expect(questionsIn(messages[0]!.content)).toHaveLength(50);
    expect(messages[0]!.content).not.toContain('FROM THE KNOWLEDGE BASE');
    expect(messages[1]).toEqual({ role: 'user', content: 'Gdzie zaparkuje wasz monter?' });
  });

  it('the system text alone still holds every entry (a caller that sends it whole loses nothing)', () => {
    const system = buildAgentSystemPrompt(input);
    expect(questionsIn(system)).toHaveLength(50);
  });
});

describe('a knowledge base under the bound is sent whole, exactly as before', () => {
  const kb = 'Q: What are your opening hours?\nA: 8am to 6pm, Monday to Friday.\n\nQ: Is there parking?\nA: Yes, behind the shop.\n\nWe are based in Leeds.';
  it('one system message with every entry, the history, the caller\'s words', () => {
    const system = buildAgentSystemPrompt({ businessName: 'Acme Plumbing', knowledgeBase: kb });
    const history: ChatMessage[] = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: '{}' }];
    expect(agentTurnMessages(system, history, 'Can I park?')).toEqual([{ role: 'system', content: system }, ...history, { role: 'user', content: 'Can I park?' }]);
    expect(system).toContain('Answer only from the knowledge base above.');
    expect(system).not.toContain('FROM THE KNOWLEDGE BASE');
  });
});
