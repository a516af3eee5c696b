import { describe, expect, it } from 'vitest';
import { displayName, legCallerId } from './leg-caller-id.js';

const DID = '+441632960001';
const base = { businessName: 'Acme Plumbing', did: DID, callerNumber: '07700 900555', callerPresentation: 'allowed_not_screened' };

describe('what a person’s phone is shown when the box calls it', () => {
  it('called: the appliance number under the business’s name, and no other header', () => {
    expect(legCallerId({ ...base, presents: 'called' })).toEqual({ callerId: `"Acme Plumbing" <${DID}>`, variables: {} });
  });

  it('caller: the caller’s number in From, the appliance number as the network number (P-Asserted-Identity) and the diverting line', () => {
    expect(legCallerId({ ...base, presents: 'caller' })).toEqual({
      callerId: '"Acme Plumbing" <+447700900555>',
      variables: {
        'PJSIP_HEADER(add,P-Asserted-Identity)': `<tel:${DID}>`,
        'PJSIP_HEADER(add,Diversion)': `<tel:${DID}>;reason=unconditional`,
      },
    });
  });

  it('caller: a withheld caller, or one whose number is marked private, still presents the appliance number', () => {
    for (const callerNumber of ['anonymous', '', 'Restricted', 'unknown']) {
      expect(legCallerId({ ...base, presents: 'caller', callerNumber })).toEqual({ callerId: `"Acme Plumbing" <${DID}>`, variables: {} });
    }
    for (const callerPresentation of ['prohib_not_screened', 'prohib', 'unavailable', null]) {
      expect(legCallerId({ ...base, presents: 'caller', callerPresentation }).callerId).toBe(`"Acme Plumbing" <${DID}>`);
    }
  });

  it('caller: something that is not a phone number (a SIP user name) is not passed on', () => {
    expect(legCallerId({ ...base, presents: 'caller', callerNumber: 'alice' })).toEqual({ callerId: `"Acme Plumbing" <${DID}>`, variables: {} });
  });

  it('a business with no name shows the number alone', () => {
    expect(legCallerId({ ...base, businessName: null, presents: 'called' }).callerId).toBe(DID);
    expect(legCallerId({ ...base, businessName: '  ', presents: 'caller' }).callerId).toBe('+447700900555');
  });

  it('keeps the display name to what the "name" <number> form carries whole', () => {
    expect(displayName('Bob "the Builder" <Ltd>\\ \n & Sons')).toBe('Bob the Builder Ltd & Sons');
    expect(displayName('Café Zoë')).toBe('Café Zoë');
    expect(displayName('x'.repeat(80))).toHaveLength(60);
  });
});
