import { describe, expect, it } from 'vitest';
import { chooseBusiness } from './which-business.js';

const acme = { id: 1, businessName: 'Acme Plumbing', email: 'acme@example.co.uk' };
const bright = { id: 2, businessName: 'Bright Dental', email: 'bright@example.co.uk' };
const unnamed = { id: 3, businessName: null, email: 'third@example.co.uk' };

describe('which business a shared phone means (issue 24 item 4)', () => {
  it('takes a leading business name and colon, in any case, and passes the rest on as the command', () => {
    expect(chooseBusiness([acme, bright], 'bright dental: DONE 12')).toEqual({ kind: 'chosen', id: 2, body: 'DONE 12' });
    expect(chooseBusiness([acme, unnamed], 'third@example.co.uk:HELP')).toEqual({ kind: 'chosen', id: 3, body: 'HELP' });
  });

  it('asks which business, naming them and showing the form, when the text does not say', () => {
    expect(chooseBusiness([acme, bright], 'DONE 12')).toEqual({
      kind: 'ask',
      question: 'This number gets call notifications for 2 businesses: Acme Plumbing, Bright Dental. Which one is this for? Send it again starting with the business name and a colon, e.g. "Acme Plumbing: DONE 12".',
    });
    // A name that is not one of them is not a choice.
    expect(chooseBusiness([acme, bright], 'Other Ltd: DONE 12').kind).toBe('ask');
  });
});
