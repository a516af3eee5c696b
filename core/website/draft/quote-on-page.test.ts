import { describe, expect, it } from 'vitest';
import { quoteOnPage } from './quote-on-page.js';

const page = 'Boiler servicing\n\nA standard boiler service costs £85 \u2013 parts extra.\nWe’re Gas Safe registered.';

describe('quoteOnPage', () => {
  it('finds a sentence copied with case, whitespace, quote and dash drift', () => {
    expect(quoteOnPage('a standard boiler service costs £85 - parts extra.', page)).toBe(true);
    expect(quoteOnPage("We're Gas  Safe registered", page)).toBe(true);
  });
  it('refuses a sentence the page does not hold', () => {
    expect(quoteOnPage('A standard boiler service costs £75 - parts extra.', page)).toBe(false);
    expect(quoteOnPage('We are Gas Safe registered engineers.', page)).toBe(false);
  });
  it('refuses a quote too short to prove anything', () => {
    expect(quoteOnPage('£85', page)).toBe(false);
  });
});
