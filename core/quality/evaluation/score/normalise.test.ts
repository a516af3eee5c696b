import { describe, expect, it } from 'vitest';
import { containsPhrase, normaliseWords } from './normalise.js';

const norm = (s: string) => normaliseWords(s).join(' ');

describe('number normalisation', () => {
  it('reads a phone number said digit by digit as the digits written', () => {
    expect(norm('oh seven seven double oh nine double oh one two three')).toBe('07700900123');
    expect(norm('07700 900123')).toBe('07700900123');
    expect(norm('077 009 00123')).toBe('07700900123');
  });

  it('takes the international form of a UK number as its national form', () => {
    expect(norm('+44 7700 900123')).toBe('07700900123');
    expect(norm('+44 (0)7700 900123')).toBe('07700900123');
  });

  it('reads "nine hundred" inside a number the way it is written', () => {
    expect(norm('oh one one three four nine six oh nine hundred')).toBe('01134960900');
    expect(norm('nine hundred one two three')).toBe('900123');
  });

  it('reads tens and units as one number', () => {
    expect(norm('forty five pounds')).toBe('45 pounds');
    expect(norm('three hundred and five')).toBe('305');
    expect(norm('twenty twenty six')).toBe('2026');
    expect(norm('twelve')).toBe('12');
  });

  it('says a price in pounds the way it is spoken', () => {
    expect(norm('£45')).toBe('45 pounds');
    expect(norm('£1,250')).toBe('1250 pounds');
    expect(norm('£45.50')).toBe(norm('forty five pounds fifty'));
  });

  it('writes times one way: "9am", "9 a.m." and "nine a m" agree, as do "3:30pm" and "three thirty p m"', () => {
    expect(norm('9am')).toBe('9 am');
    expect(norm('9 a.m.')).toBe('9 am');
    expect(norm('nine a m')).toBe('9 am');
    expect(norm('3:30pm')).toBe(norm('three thirty p m'));
  });

  it('keeps "oh" and "o" as words when they are not part of a number', () => {
    expect(norm('Oh, hello, it is me')).toBe('oh hello it is me');
    expect(norm('oh seven')).toBe('07');
  });

  it('lower-cases and drops punctuation, accents and apostrophes', () => {
    expect(norm("Hi, it's Zoë O'Brien!")).toBe('hi its zoe obrien');
  });
});

describe('containsPhrase', () => {
  it('finds a phrase in either written form', () => {
    const words = normaliseWords('A boiler service costs seventy five pounds.');
    expect(containsPhrase(words, '£75')).toBe(true);
    expect(containsPhrase(words, 'boiler service')).toBe(true);
    expect(containsPhrase(words, '£70')).toBe(false);
  });
});
