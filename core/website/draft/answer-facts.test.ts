import { describe, expect, it } from 'vitest';
import { factKeys, factsNotIn, factsOf } from './answer-facts.js';

const missing = (answer: string, quote: string) => factsNotIn(answer, quote).map((f) => f.said);

describe('factsOf', () => {
  it('reads £85, £85.00 and 85 pounds as one price', () => {
    expect(factKeys('£85')).toEqual(factKeys('£85.00'));
    expect(factKeys('85 pounds')).toEqual(factKeys('£85'));
    expect(factKeys('£1,200')).toEqual(new Set(['price:120000']));
  });
  it('reads 6pm, 6 pm and 18:00 as one time, and 8am as 08:00', () => {
    expect(factKeys('6pm')).toEqual(factKeys('18:00'));
    expect(factKeys('6 pm')).toEqual(factKeys('18:00'));
    expect(factKeys('8am')).toEqual(factKeys('08:00'));
  });
  it('takes capitalised words not opening a sentence as names', () => {
    expect(factsOf('We cover Bristol and Bath.').filter((f) => f.kind === 'name').map((f) => f.value)).toEqual(['bristol', 'bath']);
  });
});

describe('factsNotIn: every fact of the answer must be in its quote', () => {
  it('passes a paraphrase that keeps the facts', () => {
    expect(missing('A boiler service is 85 pounds.', 'A standard boiler service costs £85.00, parts extra.')).toEqual([]);
    expect(missing("We're open Monday to Friday, 8am to 6pm.", 'Our office is open Mon–Fri 08:00–18:00.')).toEqual([]);
    expect(missing('On Saturdays we are open 9am to 1pm.', 'Sat 9-1')).toEqual([]);
    expect(missing('Yes, we work on Tuesdays.', 'We work Monday to Friday.')).toEqual([]);
  });
  it('catches a price its sentence does not contain', () => {
    expect(missing('A boiler service is £95.', 'A standard boiler service costs £85.')).toEqual(['£95']);
  });
  it('catches a time, a number, a day and a place the sentence does not state', () => {
    expect(missing('We open at 7am.', 'We open at 8am.')).toEqual(['7am']);
    expect(missing('Every job has a 2 year guarantee.', 'Every job is guaranteed.')).toEqual(['2']);
    expect(missing('We are open on Sundays.', 'We are open Monday to Saturday.')).toEqual(['Sundays']);
    expect(missing('We also cover Swindon.', 'We cover Bristol and Bath.')).toEqual(['Swindon']);
  });
});
