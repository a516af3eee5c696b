import { describe, expect, it } from 'vitest';
import { parseAgentReply, ReplyStreamReader, type ReplyStreamEvent } from './agent-reply.js';

describe('parseAgentReply', () => {
  it('reads a well-formed reply', () => {
    expect(parseAgentReply('{"intent":"question","answered":true,"answer":"We open at 8am."}')).toEqual({
      intent: 'question',
      answered: true,
      answer: 'We open at 8am.',
      wellFormed: true,
    });
  });
  it('tolerates code fences, surrounding prose and string booleans', () => {
    const r = parseAgentReply('Sure!\n```json\n{"answer": "Yes.", "answered": "true", "intent": "QUESTION"}\n```');
    expect(r).toMatchObject({ answered: true, answer: 'Yes.', intent: 'question', wellFormed: true });
  });
  it('falls back to not answered on garbage', () => {
    for (const raw of ['', 'We open at 8am.', '{"answer": "x"', '[1,2]', '{"answer": 5}', 'null']) {
      expect(parseAgentReply(raw)).toMatchObject({ answered: false, intent: 'question' });
    }
  });
  it('treats answered:true with an empty answer as not answered, and unknown intents as question', () => {
    expect(parseAgentReply('{"intent":"dance","answered":true,"answer":"  "}')).toMatchObject({ answered: false, intent: 'question' });
  });
  it('keeps the intent when answered is missing', () => {
    expect(parseAgentReply('{"intent":"goodbye","answer":"Bye."}')).toMatchObject({ intent: 'goodbye', answered: false });
  });
});

describe('ReplyStreamReader', () => {
  const feed = (chunks: string[]) => {
    const r = new ReplyStreamReader();
    return chunks.flatMap((c) => r.push(c));
  };
  const answerOf = (events: ReplyStreamEvent[]) =>
    events.filter((e) => e.type === 'answer').map((e) => (e as { text: string }).text).join('');

  it('reports intent and answered before the answer, whatever the chunking', () => {
    const json = '{"intent": "question", "answered": true, "answer": "We open at 8am. We close at 6pm."}';
    for (const size of [1, 3, 7, json.length]) {
      const chunks = json.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      const events = feed(chunks);
      expect(events[0]).toEqual({ type: 'intent', intent: 'question' });
      expect(events[1]).toEqual({ type: 'answered', answered: true });
      expect(answerOf(events)).toBe('We open at 8am. We close at 6pm.');
    }
  });
  it('decodes escapes split across chunks', () => {
    const events = feed(['{"answered":false,"answer":"It\\', '"s \\u00a3', '12 \\\\ \\n ok"}']);
    expect(answerOf(events)).toBe('It"s £12 \\ \n ok');
    expect(events).toContainEqual({ type: 'answered', answered: false });
  });
  it('ignores prose before the object and keys it does not know', () => {
    const events = feed(['Here you go: {"extra": {"a": [1, {"b": 2}]}, "n": 3, "answer": "Hi", "intent": "goodbye"}']);
    expect(answerOf(events)).toBe('Hi');
    expect(events).toContainEqual({ type: 'intent', intent: 'goodbye' });
  });
});

describe('parseAgentReply: booking fields (issue 41)', () => {
  it('reads the choice, name, number and yes after the usual keys', () => {
    expect(parseAgentReply('{"intent":"book","answered":true,"answer":"","choice":"S2","name":" Sam Jones ","number":"07700 900123","yes":"yes"}')).toMatchObject({
      intent: 'book',
      booking: { choice: 's2', name: 'Sam Jones', number: '07700 900123', yes: true },
    });
  });
  it('has no booking fields when the model gave none', () => {
    expect(parseAgentReply('{"intent":"question","answered":true,"answer":"Yes."}').booking).toBeUndefined();
  });
});
