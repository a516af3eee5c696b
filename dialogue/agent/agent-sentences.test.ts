import { describe, expect, it } from 'vitest';
import { SentenceSplitter } from './agent-sentences.js';

/** A whole text through the streaming splitter at once. */
function splitSentences(text: string): string[] {
  const s = new SentenceSplitter();
  return [...s.push(text), ...s.flush()];
}

describe('SentenceSplitter', () => {
  it('releases a sentence as soon as the next one starts', () => {
    const s = new SentenceSplitter();
    expect(s.push('We open at 8am')).toEqual([]);
    expect(s.push('.')).toEqual([]); // could still be "8am.x"
    expect(s.push(' We')).toEqual(['We open at 8am.']);
    expect(s.push(' close at 6pm!')).toEqual([]);
    expect(s.flush()).toEqual(['We close at 6pm!']);
  });
  it('does not split prices, decimals, abbreviations or initials', () => {
    expect(splitSentences('A call-out is £49.50 plus VAT. Dr. Patel and J. Smith work Mon. to Fri. each week. Thanks.')).toEqual([
      'A call-out is £49.50 plus VAT.',
      'Dr. Patel and J. Smith work Mon. to Fri. each week.',
      'Thanks.',
    ]);
  });
  it('splits on ? and ! and newlines, and keeps closing quotes with their sentence', () => {
    expect(splitSentences('Is that ok? Great! He said "yes." Then\nbye')).toEqual(['Is that ok?', 'Great!', 'He said "yes."', 'Then', 'bye']);
  });
  it('gives the same sentences whatever the chunking', () => {
    const text = 'We cover Leeds and York. Call-outs cost £60.00 in the evening. Is there anything else?';
    const whole = splitSentences(text);
    const s = new SentenceSplitter();
    const streamed = [...text].flatMap((c) => s.push(c)).concat(s.flush());
    expect(streamed).toEqual(whole);
    expect(whole).toHaveLength(3);
  });
  it('splits a run-on sentence at a comma rather than waiting for ever', () => {
    const long = 'We do boilers, radiators, '.repeat(12);
    const s = new SentenceSplitter();
    expect(s.push(long).length).toBeGreaterThan(0);
  });
  it('drops fragments with nothing to say', () => {
    expect(splitSentences('... Hello. !')).toEqual(['Hello.']);
  });
  it('releases the first clause of a long first sentence as soon as its comma has arrived', () => {
    const s = new SentenceSplitter();
    expect(s.push('We cover Leeds, York, Harrogate and Wakefield')).toEqual([]); // still short: wait for the full stop
    expect(s.push(', and most of the villages in between')).toEqual(['We cover Leeds, York, Harrogate and Wakefield,']);
    expect(s.push(' as well. After that, we')).toEqual(['and most of the villages in between as well.']);
    // Only the first sentence is cut short: later ones wait for their full stop.
    expect(s.push(' go as far as Ripon, Thirsk and Northallerton on most weekdays, and')).toEqual([]);
    expect(s.flush()).toEqual(['After that, we go as far as Ripon, Thirsk and Northallerton on most weekdays, and']);
  });
  it('keeps a short opener ("Yes,") with the rest of the first sentence, and leaves times and thousands whole', () => {
    const s = new SentenceSplitter();
    expect(s.push('Yes, we can come out to you at 8:30 for a fee of 1,000 pounds on a weekday')).toEqual([]);
    expect(s.push(' morning.')).toEqual([]);
    expect(s.flush()).toEqual(['Yes, we can come out to you at 8:30 for a fee of 1,000 pounds on a weekday morning.']);
  });
  it('can be told not to cut the first clause', () => {
    const s = new SentenceSplitter({ firstClause: false });
    expect(s.push('We cover Leeds, York, Harrogate and Wakefield, and most villages in between')).toEqual([]);
  });
});

