import { describe, expect, it } from 'vitest';
import { bm25Scores, termsOf, weightedTerms } from './knowledge-relevance.js';

describe('termsOf', () => {
  it('drops words that name no entry and meets plurals and -ing forms', () => {
    expect(termsOf('Where can I park? Is there parking for the vans?')).toEqual(['park', 'park', 'van']);
    expect(termsOf("What's the engineer's number?")).toEqual(['engineer', 'number']);
  });
});

describe('bm25Scores', () => {
  const docs = ['Our opening hours are 8am to 6pm.', 'Parking: there is free parking behind the shop.', 'A boiler service is £75. A boiler repair is quoted.'];

  it('scores only the entries sharing a word with the query, the rarer word more', () => {
    const s = bm25Scores(docs, weightedTerms([{ text: 'Can I park near you?', weight: 1 }]));
    expect(s[1]).toBeGreaterThan(0);
    expect([s[0], s[2]]).toEqual([0, 0]);
  });

  it('weighs earlier words less than the words said now', () => {
    const q = weightedTerms([
      { text: 'how much is a boiler service', weight: 1 },
      { text: 'what are your opening hours', weight: 0.5 },
    ]);
    const [hours, , boiler] = bm25Scores(docs, q);
    expect(boiler!).toBeGreaterThan(hours!);
    expect(hours!).toBeGreaterThan(0);
  });

  it('gives every entry 0 for a query with no words that count', () => {
    expect(bm25Scores(docs, weightedTerms([{ text: 'yes please', weight: 1 }]))).toEqual([0, 0, 0]);
  });
});
