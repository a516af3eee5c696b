import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageDrafter } from '../../core/website/draft/page-drafter.js';
import type { SitePage } from '../../core/website/parts.js';
import { createOllamaLanguageModel } from '../../models/llm/ollama.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';

// The drafter through the real Ollama client over HTTP, against the Ollama double: what the
// model is sent (the page, the JSON format) and what code makes of its reply.

let ollama: OllamaDouble;
beforeAll(async () => {
  ollama = await startOllamaDouble({ models: ['llama3.2:3b'] });
});
afterAll(async () => {
  await ollama?.close();
});

const page: SitePage = {
  url: 'http://plumber.test/prices',
  title: 'Prices – Avon Valley Plumbing',
  text: ['Our prices', 'A standard boiler service costs £95, including the flue gas check.', 'Drain unblocking starts at £60.', 'We’re open Mon–Fri 08:00–18:00 and Sat 9-1.'].join('\n\n'),
};

const reply = (pairs: Array<{ question: string; answer: string; quote: string; topic: string }>) => ({ reply: JSON.stringify({ pairs }) });

describe('createPageDrafter with the Ollama client', () => {
  it('sends the page and the JSON format, keeps grounded drafts, drops an invented price and proposes a change', async () => {
    ollama.script.push(
      reply([
        { question: 'How much is a boiler service?', answer: 'A standard boiler service is £95, flue gas check included.', quote: 'A standard boiler service costs £95, including the flue gas check.', topic: 'other' },
        { question: 'How much does it cost to unblock a drain?', answer: 'Drain unblocking is £45.', quote: 'Drain unblocking starts at £60.', topic: 'other' },
        { question: 'When are you open?', answer: "We're open Monday to Friday 8am to 6pm, and Saturday 9am to 1pm.", quote: 'We’re open Mon–Fri 08:00–18:00 and Sat 9-1.', topic: 'hours' },
        { question: 'Do you fit showers?', answer: 'Yes, from £250.', quote: 'Shower fitting from £250.', topic: 'other' },
      ]),
    );
    const drafter = createPageDrafter(createOllamaLanguageModel({ host: ollama.url, model: 'llama3.2:3b' }));
    const out = await drafter(page, 'Q: What does a boiler service cost?\nA: A boiler service is £85.', undefined);

    const sent = ollama.requests.at(-1)!;
    expect(sent.path).toBe('/api/chat');
    expect(sent.body.format).toMatchObject({ type: 'object', required: ['pairs'] });
    expect(sent.body.messages.at(-1).content).toContain('Drain unblocking starts at £60.');

    expect(out.dropped).toBe(2); // £45 against a sentence saying £60; a quote the page does not hold
    expect(out.drafts).toEqual([
      {
        kind: 'change',
        question: 'How much is a boiler service?',
        answer: 'A standard boiler service is £95, flue gas check included.',
        quote: 'A standard boiler service costs £95, including the flue gas check.',
        currentQuestion: 'What does a boiler service cost?',
        currentAnswer: 'A boiler service is £85.',
      },
      {
        kind: 'hours',
        question: 'When are you open?',
        answer: "We're open Monday to Friday 8am to 6pm, and Saturday 9am to 1pm.",
        quote: 'We’re open Mon–Fri 08:00–18:00 and Sat 9-1.',
        hours: {
          mon: [{ open: '08:00', close: '18:00' }],
          tue: [{ open: '08:00', close: '18:00' }],
          wed: [{ open: '08:00', close: '18:00' }],
          thu: [{ open: '08:00', close: '18:00' }],
          fri: [{ open: '08:00', close: '18:00' }],
          sat: [{ open: '09:00', close: '13:00' }],
          sun: [],
        },
      },
    ]);
  });

  it('makes no drafts of a reply that is not the asked JSON', async () => {
    ollama.script.push({ reply: 'Here are some questions: 1. How much?' });
    const drafter = createPageDrafter(createOllamaLanguageModel({ host: ollama.url, model: 'llama3.2:3b' }));
    expect(await drafter(page, null)).toEqual({ drafts: [], dropped: 0 });
  });
});
