import { describe, expect, it } from 'vitest';
import { chooseBusiness, widestRolePerBusiness } from './which-business.js';

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

describe('one role per business for a phone (issue 58, item 6)', () => {
  const sarahOwn = { businessId: 1, member: { id: 7, name: 'Sarah', view: 'own' as const } };
  const sarahAll = { businessId: 1, member: { id: 9, name: 'Sarah B', view: 'everything' as const } };
  const ownerOf1 = { businessId: 1, member: null };
  const tomIn2 = { businessId: 2, member: { id: 3, name: 'Tom', view: 'own' as const } };
  const tomAgainIn2 = { businessId: 2, member: { id: 4, name: 'Tom', view: 'own' as const } };

  it('the owner\'s role wins over a member\'s in the same business, then the widest view, then the earliest member', () => {
    expect(widestRolePerBusiness([sarahOwn, ownerOf1, sarahAll])).toEqual([ownerOf1]);
    expect(widestRolePerBusiness([sarahOwn, sarahAll])).toEqual([sarahAll]);
    expect(widestRolePerBusiness([tomAgainIn2, tomIn2])).toEqual([tomIn2]);
  });

  it('keeps one role in each business, so two businesses still ask which one', () => {
    expect(widestRolePerBusiness([sarahOwn, tomIn2])).toEqual([sarahOwn, tomIn2]);
  });
});
