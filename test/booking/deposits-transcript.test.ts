// Issue 59 (PCI DSS 4.0.1): the transcript the box stores of an agent call never holds a card
// number the caller read out (dialogue/agent/card-guard.ts, applied where the transcript is made).
import { describe, expect, it } from 'vitest';
import { formatTranscript } from '../../pbx/flows/agent/transcript.js';
import { CARD_REMOVED } from '../../dialogue/agent/card-guard.js';

describe('the stored transcript', () => {
  it('holds no card number, even one read out over two turns', () => {
    const text = formatTranscript([
      { speaker: 'Agent', text: 'That time is held for you.' },
      { speaker: 'Caller', text: 'Can I just give you 4242 4242' },
      { speaker: 'Caller', text: '4242 4242' },
    ]);
    expect(text).toBe(`Agent: That time is held for you.\nCaller: Can I just give you ${CARD_REMOVED}`);
    expect(text).not.toMatch(/4242/);
  });
});
