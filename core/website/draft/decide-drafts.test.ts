import { describe, expect, it } from 'vitest';
import { decideDrafts } from './decide-drafts.js';
import type { DraftPair } from './draft-prompt.js';
import { ownerEntries } from './kb-match.js';

const page = [
  'Prices',
  'A standard boiler service costs £95, including the flue gas check.',
  'Drain unblocking starts at £60.',
  'We are open Monday to Friday 8am to 6pm and Saturday 9am to 1pm.',
  'We cover Bristol, Bath and Keynsham.',
].join('\n');

const pair = (question: string, answer: string, quote: string, topic: DraftPair['topic'] = 'other'): DraftPair => ({ question, answer, quote, topic });

describe('decideDrafts', () => {
  it('keeps a grounded pair as a new draft', () => {
    const out = decideDrafts([pair('Do you unblock drains?', 'Yes, drain unblocking starts at £60.', 'Drain unblocking starts at £60.')], page, []);
    expect(out).toMatchObject({ dropped: 0, drafts: [{ kind: 'new', question: 'Do you unblock drains?' }] });
  });
  it('drops a draft stating a price its cited sentence does not contain', () => {
    const out = decideDrafts([pair('How much to unblock a drain?', 'Drain unblocking is £45.', 'Drain unblocking starts at £60.')], page, []);
    expect(out.drafts).toEqual([]);
    expect(out.dropped).toBe(1);
    expect(out.reasons[0]).toContain('£45');
  });
  it('drops a draft whose quote is not on the page', () => {
    const out = decideDrafts([pair('Do you fit showers?', 'Yes, shower fitting is £250.', 'Shower fitting costs £250.')], page, []);
    expect(out).toMatchObject({ drafts: [], dropped: 1 });
  });
  it("proposes a change when the site's price differs from the owner's answer", () => {
    const kb = ownerEntries('Q: How much is a boiler service?\nA: A boiler service is £85.');
    const out = decideDrafts([pair('What does a boiler service cost?', 'A boiler service is £95.', 'A standard boiler service costs £95, including the flue gas check.')], page, kb);
    expect(out.drafts).toEqual([
      { kind: 'change', question: 'What does a boiler service cost?', answer: 'A boiler service is £95.', quote: 'A standard boiler service costs £95, including the flue gas check.', currentQuestion: 'How much is a boiler service?', currentAnswer: 'A boiler service is £85.' },
    ]);
  });
  it('does not offer what the knowledge base already says', () => {
    const kb = ownerEntries('Q: How much is a boiler service?\nA: £95 for a standard service.');
    expect(decideDrafts([pair('What does a boiler service cost?', 'A boiler service is £95.', 'A standard boiler service costs £95, including the flue gas check.')], page, kb).drafts).toEqual([]);
  });
  it('makes the hours and the areas their own kinds, one each per page, with the hours read by code', () => {
    const hoursQuote = 'We are open Monday to Friday 8am to 6pm and Saturday 9am to 1pm.';
    const out = decideDrafts(
      [
        pair('When are you open?', 'Monday to Friday 8am to 6pm, and Saturday 9am to 1pm.', hoursQuote, 'other'),
        pair('Are you open on Saturdays?', 'Yes, Saturday 9am to 1pm.', hoursQuote, 'hours'),
        pair('Which areas do you cover?', 'We cover Bristol, Bath and Keynsham.', 'We cover Bristol, Bath and Keynsham.', 'areas'),
      ],
      page,
      [],
    );
    expect(out.drafts.map((d) => d.kind)).toEqual(['hours', 'new', 'areas']);
    expect(out.drafts[0]!.hours).toMatchObject({ mon: [{ open: '08:00', close: '18:00' }], sat: [{ open: '09:00', close: '13:00' }], sun: [] });
  });
});
