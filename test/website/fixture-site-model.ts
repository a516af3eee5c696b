// What a small local model plausibly answers when the drafter hands it a page of the fixture site
// (fixture-site.ts): for the Ollama double's replier in the tests that join the crawler, the
// drafter and the service (test/website/learn-from-site.test.ts, test/e2e/website-learn.test.ts).
import type { OllamaDouble, OllamaRequest } from '../doubles/ollama/server.js';
import { HOURS_SENTENCE } from './fixture-site.js';

export const BOILER_85 = 'A boiler service costs £85, including the flue gas check and a written report.';
export const BOILER_95 = 'A boiler service costs £95, including the flue gas check and a written report.';
export const CALL_OUT = 'The call-out charge is £60, which includes the first half hour of work.';
const LANDLORD = 'A Gas Safe landlord certificate costs £70.';
export const AREAS = 'We cover Leeds, Horsforth, Headingley and Otley.';
export const PARKING = 'Yes: please keep a space free on your drive or in the street for our van.';

type Pair = { question: string; answer: string; quote: string; topic: 'hours' | 'areas' | 'other' };
const pairs = (...p: Pair[]) => JSON.stringify({ pairs: p });

/**
 * What a small local model plausibly answers for each fixture page: pairs quoting the page's real
 * sentences, and on the prices page one whose answer invents a price its quote lacks (£65 for £70).
 */
export function fixtureModelReply(req: OllamaRequest): string {
  const prompt = String(req.body.messages?.at(-1)?.content ?? '');
  if (prompt.includes(BOILER_85) || prompt.includes(BOILER_95)) {
    const price = prompt.includes(BOILER_95) ? '£95' : '£85';
    return pairs(
      { question: 'How much is a boiler service?', answer: `A boiler service is ${price}, with the flue gas check and a written report.`, quote: price === '£95' ? BOILER_95 : BOILER_85, topic: 'other' },
      { question: 'Do you charge a call-out fee?', answer: 'The call-out charge is £60, including the first half hour.', quote: CALL_OUT, topic: 'other' },
      { question: 'How much is a landlord gas certificate?', answer: 'A landlord certificate is £65.', quote: LANDLORD, topic: 'other' },
    );
  }
  if (prompt.includes(AREAS)) return pairs({ question: 'Which areas do you cover?', answer: 'We cover Leeds, Horsforth, Headingley and Otley.', quote: AREAS, topic: 'areas' });
  if (prompt.includes(PARKING)) return pairs({ question: 'Do you need parking?', answer: 'Yes, please keep a space free on your drive or in the street for the van.', quote: PARKING, topic: 'other' });
  if (prompt.includes(HOURS_SENTENCE)) return pairs({ question: 'When are you open?', answer: 'Monday to Friday 8am to 6pm, Saturday 9am to 1pm.', quote: HOURS_SENTENCE, topic: 'hours' });
  return pairs();
}

/** The page each model request drafted (the prompt names its address). */
const draftedPage = (req: OllamaRequest) => /^Address: (\S+)$/m.exec(String(req.body.messages?.at(-1)?.content ?? ''))?.[1] ?? '?';
export const draftedPages = (o: OllamaDouble) => o.requests.filter((r) => r.path === '/api/chat' || r.path === '/api/generate').map(draftedPage);
