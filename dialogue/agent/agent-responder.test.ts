import { describe, expect, it } from 'vitest';
import { AGENT_LINES } from '../spoken/agent-lines.js';
import type { ReplyStreamer } from '../../models/llm/language-model.js';
import { askAgent, respond, type ResponderEvent } from './agent-responder.js';
import { answerTurn, decideTurn, NoReply } from './agent-turn.js';

function scripted(text: string, chunk = 5): ReplyStreamer {
  return {
    name: 'scripted',
    async *stream() {
      for (let i = 0; i < text.length; i += chunk) yield text.slice(i, i + chunk);
    },
  };
}

async function collect(streamer: ReplyStreamer) {
  const events: ResponderEvent[] = [];
  for await (const e of respond(streamer, [])) events.push(e);
  return events;
}

describe('respond', () => {
  it('yields answer sentences while streaming once answered:true is known', async () => {
    const events = await collect(scripted('{"intent":"question","answered":true,"answer":"We open at 8am. We close at 6pm."}'));
    expect(events.filter((e) => e.type === 'sentence').map((e) => (e as { text: string }).text)).toEqual(['We open at 8am.', 'We close at 6pm.']);
    // The first sentence comes before the model has finished.
    expect(events[0]).toEqual({ type: 'sentence', text: 'We open at 8am.' });
    expect(events.at(-1)).toMatchObject({ type: 'done', reply: { answered: true } });
  });

  it('never speaks the model text when the knowledge base did not cover it', async () => {
    const events = await collect(scripted('{"intent":"question","answered":false,"answer":"It is probably £50. Call us."}'));
    expect(events.filter((e) => e.type === 'sentence')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'done', reply: { answered: false } });
  });

  it('holds sentences when answered comes last, and speaks them at the end', async () => {
    const events = await collect(scripted('{"answer":"Yes. We do.","intent":"question","answered":true}'));
    expect(events.filter((e) => e.type === 'sentence').map((e) => (e as { text: string }).text)).toEqual(['Yes.', 'We do.']);
  });

  it('speaks nothing on garbage output', async () => {
    const events = await collect(scripted('Sure, we open at 8am.'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'done', reply: { answered: false, wellFormed: false } });
  });

  // A model that has written this much and is still writing: the rest waits on `release`.
  function stalled(head: string, tail: string) {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const streamer: ReplyStreamer = {
      name: 'stalled',
      async *stream() {
        yield head;
        await gate;
        yield tail;
      },
    };
    return { streamer, release };
  }

  it('hands the first sentence over while the JSON object is still open', async () => {
    const { streamer, release } = stalled('{"intent":"question","answered":true,"answer":"We open at 8am. We', ' close at 6pm."}');
    const events = respond(streamer, []);
    expect((await events.next()).value).toEqual({ type: 'sentence', text: 'We open at 8am.' });
    release();
    const rest: ResponderEvent[] = [];
    for await (const e of events) rest.push(e);
    expect(rest.map((e) => e.type)).toEqual(['sentence', 'done']);
  });

  it('hands over the first clause of a long first sentence while the model still writes it', async () => {
    const { streamer, release } = stalled(
      '{"intent":"question","answered":true,"answer":"We cover Leeds, York, Harrogate and Wakefield, and most of the villages',
      ' in between."}',
    );
    const events = respond(streamer, []);
    expect((await events.next()).value).toEqual({ type: 'sentence', text: 'We cover Leeds, York, Harrogate and Wakefield,' });
    release();
    const rest: ResponderEvent[] = [];
    for await (const e of events) rest.push(e);
    expect(rest[0]).toEqual({ type: 'sentence', text: 'and most of the villages in between.' });
  });

  it('passes engine failures to the caller', async () => {
    const failing: ReplyStreamer = {
      name: 'down',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error('connection refused');
      },
    };
    await expect(collect(failing)).rejects.toThrow('connection refused');
  });
});

describe('decideTurn', () => {
  const base = { wellFormed: true, answer: '' };
  it('"book" goes to the booking walk only where a desk is available; otherwise it is not an answer', () => {
    expect(decideTurn({ ...base, intent: 'book', answered: true }, 'Acme', [], { canBook: true })).toEqual({ kind: 'book', say: [], next: 'listen' });
    expect(decideTurn({ ...base, intent: 'book', answered: true }, 'Acme', [])).toMatchObject({ kind: 'not-answered', say: [AGENT_LINES.notAnswered] });
  });
  it('answers from the knowledge base', () => {
    expect(decideTurn({ ...base, intent: 'question', answered: true, answer: 'Yes.' }, 'Acme', ['Yes.'])).toEqual({
      kind: 'answer',
      say: ['Yes.'],
      next: 'listen',
    });
  });
  it('admits, offers a message and logs the question when not answered', () => {
    const t = decideTurn({ ...base, intent: 'question', answered: false }, 'Acme', []);
    expect(t).toMatchObject({ kind: 'not-answered', say: [AGENT_LINES.notAnswered], logQuestion: true });
    expect(AGENT_LINES.notAnswered).toMatch(/don't have that information/);
    expect(AGENT_LINES.notAnswered).toMatch(/message/);
  });
  it('takes a message when the caller asks for a person or to leave one', () => {
    expect(decideTurn({ ...base, intent: 'human', answered: false }, 'Acme', []).kind).toBe('take-message');
    expect(decideTurn({ ...base, intent: 'message', answered: true, answer: 'Sure' }, 'Acme', ['Sure']).kind).toBe('take-message');
  });
  it('puts a caller who wants a person, or says it is urgent, through when the owner can be rung', () => {
    expect(decideTurn({ ...base, intent: 'human', answered: false }, 'Acme', [], { canTransfer: true })).toEqual({ kind: 'transfer', say: [], next: 'transfer', urgent: false });
    expect(decideTurn({ ...base, intent: 'urgent', answered: false }, 'Acme', [], { canTransfer: true })).toEqual({ kind: 'transfer', say: [], next: 'transfer', urgent: true });
  });
  it('takes an urgent message straight away when nobody can be put through', () => {
    expect(decideTurn({ ...base, intent: 'urgent', answered: false }, 'Acme', [])).toEqual({ kind: 'take-message', say: [AGENT_LINES.urgentMessage], next: 'message', urgent: true });
  });
  it('says goodbye and hangs up', () => {
    expect(decideTurn({ ...base, intent: 'goodbye', answered: false }, 'Acme', [])).toEqual({
      kind: 'goodbye',
      say: ['Thank you for calling Acme. Goodbye.'],
      next: 'hang-up',
    });
  });
});

describe('answerTurn', () => {
  const ask = (reply: string) => askAgent(scripted(reply), { system: 'rules', history: [], callerText: 'When are you open?' });

  it('hands each answer sentence over as it streams and says nothing fixed after an answer', async () => {
    const sentences: string[] = [];
    const turn = await answerTurn(ask('{"intent":"question","answered":true,"answer":"We open at 8am. We close at 6pm."}'), 'Acme', (s) => sentences.push(s));
    expect(sentences).toEqual(['We open at 8am.', 'We close at 6pm.']);
    expect(turn.outcome.kind).toBe('answer');
    expect(turn.fixedLines).toEqual([]);
    expect(turn.said).toBe('We open at 8am. We close at 6pm.');
    expect(JSON.parse(turn.historyReply.content)).toEqual({ intent: 'question', answered: true, answer: 'We open at 8am. We close at 6pm.' });
  });

  it('says the admission as a fixed line when the knowledge base does not cover the question', async () => {
    const sentences: string[] = [];
    const turn = await answerTurn(ask('{"intent":"question","answered":false,"answer":"We might open at 8."}'), 'Acme', (s) => sentences.push(s));
    expect(sentences).toEqual([]);
    expect(turn.fixedLines).toEqual([AGENT_LINES.notAnswered]);
    expect(turn.said).toBe(AGENT_LINES.notAnswered);
    expect(JSON.parse(turn.historyReply.content)).toEqual({ intent: 'question', answered: false, answer: AGENT_LINES.notAnswered });
  });

  it('keeps the model\'s intent in the history when the caller asks for a person', async () => {
    const turn = await answerTurn(ask('{"intent":"human","answered":false,"answer":""}'), 'Acme');
    expect(turn.outcome.kind).toBe('take-message');
    expect(turn.fixedLines).toEqual([AGENT_LINES.human]);
    expect(JSON.parse(turn.historyReply.content)).toMatchObject({ intent: 'human', answered: false });
  });

  it('does not repeat a goodbye the model worded and streamed itself', async () => {
    const sentences: string[] = [];
    const turn = await answerTurn(ask('{"intent":"goodbye","answered":true,"answer":"Thanks for calling. Bye now."}'), 'Acme', (s) => sentences.push(s));
    expect(turn.outcome.kind).toBe('goodbye');
    expect(sentences).toEqual(['Thanks for calling.', 'Bye now.']);
    expect(turn.fixedLines).toEqual([]);
  });

  it('fails with NoReply when the stream ends before the reply is complete', async () => {
    async function* cut(): AsyncGenerator<ResponderEvent> {
      yield { type: 'sentence', text: 'We open' };
    }
    await expect(answerTurn(cut(), 'Acme')).rejects.toBeInstanceOf(NoReply);
  });
});
