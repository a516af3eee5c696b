import { describe, expect, it } from 'vitest';
import { languageAskedFor } from './asked-for.js';

describe('languageAskedFor: a caller naming the language they want', () => {
  it.each([
    ['Do you speak Polish?', 'pl'],
    ['Mówisz po polsku?', 'pl'],
    ['Cymraeg?', 'cy'],
    ['Can we talk in Welsh please', 'cy'],
    ['Ga i siarad yn Gymraeg?', 'cy'],
    ['Vorbiți română?', 'ro'],
    ['¿Hablas español?', 'es'],
    ['Fala português?', 'pt'],
    ['Urdu?', 'ur'],
    ['Punjabi please', 'pa'],
    ['English please', 'en'],
    ['Proszę po angielsku', 'en'],
    ['Saesneg, plis', 'en'],
    ['Can you do this in English instead', 'en'],
  ])('%s -> %s', (text, code) => {
    expect(languageAskedFor(text)).toBe(code);
  });

  it.each([
    ['Can you polish the floor of the kitchen?'],
    ["My Polish car's in the garage and won't start"],
    ['Do you speak English or Polish?'],
    ['Hello?'],
    [''],
    ['I need a plumber for a leaking tap in the bathroom'],
  ])('%s asks for nothing', (text) => {
    expect(languageAskedFor(text)).toBeUndefined();
  });
});
