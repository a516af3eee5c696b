import { describe, expect, it } from 'vitest';
import { buildAgentSystemPrompt } from './agent-prompt.js';
import { answerTurn } from './agent-turn.js';
import type { ResponderEvent } from './agent-responder.js';
import { CARD_REMOVED, offersCardOnPhone, passesLuhn, redactCardNumbers } from './card-guard.js';

// Issue 59 (PCI DSS 4.0.1): a card number a caller reads out is never said back nor stored.
// Stripe's test cards pass the Luhn check; phone numbers, times and prices never match.

describe('the card guard', () => {
  it('passes what the Luhn check passes', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
  });

  it('removes 13 to 19 digits passing the Luhn check, with spaces or dashes between', () => {
    expect(redactCardNumbers('it is 4242 4242 4242 4242 expiry 12/29')).toBe(`it is ${CARD_REMOVED} expiry 12/29`);
    expect(redactCardNumbers('4000-0566-5566-5556')).toBe(CARD_REMOVED);
    expect(redactCardNumbers('amex 378282246310005.')).toBe(`amex ${CARD_REMOVED}.`);
    expect(redactCardNumbers('4 2 4 2 4 2 4 2 4 2 4 2 4 2 4 2')).toBe(CARD_REMOVED);
    // A card read straight after other digits is still caught.
    expect(redactCardNumbers('1 4242424242424242 9')).toBe(CARD_REMOVED);
  });

  it('leaves what is not a card: phone numbers, a failing check, too few digits, times and prices', () => {
    for (const text of [
      'call me on 07700 900555', 'my number is +44 7700 900555', '4242 4242 4242 1', '4242 4242 4242',
      'Tuesday the 3rd of December at 10:30, £20', 'booking 2026-12-02 at 10', 'reference 123456789',
    ]) expect(redactCardNumbers(text)).toBe(text);
  });

  it('keeps a card number out of what the agent says, whatever the model wrote', async () => {
    async function* replies(): AsyncIterable<ResponderEvent> {
      yield { type: 'sentence', text: 'Thanks, I have 4242 4242 4242 4242.' };
      yield { type: 'done', reply: { intent: 'question', answered: true, answer: 'Thanks, I have 4242 4242 4242 4242.', wellFormed: true }, raw: '' };
    }
    const heard: string[] = [];
    const turn = await answerTurn(replies(), 'Hale Plumbing', (s) => heard.push(s));
    expect(heard).toEqual([`Thanks, I have ${CARD_REMOVED}.`]);
    expect(turn.said).toBe(`Thanks, I have ${CARD_REMOVED}.`);
  });
});

describe('a caller offering to pay by card on the phone', () => {
  it('is recognised from their words or from a card number', () => {
    for (const t of ['Can I pay by card now?', "I'll just give you my card details", 'Can you take my card?', 'I want to pay over the phone', 'it is 4242 4242 4242 4242']) {
      expect(offersCardOnPhone(t), t).toBe(true);
    }
    for (const t of ['Wednesday morning please', 'Yes, that is fine', 'My number is 07700 900555', 'Do you send a card reminder?']) {
      expect(offersCardOnPhone(t), t).toBe(false);
    }
  });
});

describe('the agent\'s rules', () => {
  it('tell the model never to ask for or repeat card details, and what to say instead, when it can book', () => {
    const booking = buildAgentSystemPrompt({ businessName: 'Hale Plumbing', knowledgeBase: '', booking: { step: null } });
    expect(booking).toContain('- Never ask for, repeat or write down card details. If the caller offers to pay by card, say: "I can\'t take card details on the phone; the text has a secure link."');
    expect(buildAgentSystemPrompt({ businessName: 'Hale Plumbing', knowledgeBase: '' })).not.toContain('card details');
  });
});
