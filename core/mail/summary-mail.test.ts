import { describe, expect, it } from 'vitest';
import { callSummaryMail, type SummaryMailFacts } from './summary-mail.js';
import type { Brand } from './templates.js';

const brand: Brand = { productName: 'CallKeeper', publicUrl: 'https://calls.example.co.uk', supportName: 'Support', supportEmail: 'help@example.co.uk' };
const call: SummaryMailFacts = {
  id: 41,
  status: 'voicemail',
  mode: 'voicemail',
  fromNumber: '+447700900123',
  toNumber: '+447700900001',
  createdAt: new Date('2026-07-01T13:05:00Z'),
  transcription: 'My boiler is leaking.',
  aiSummary: 'Boiler leaking; wants a visit.',
  duration: 42,
};

describe('the summary e-mail', () => {
  it('says whether a put-through call was taken, and for how long', () => {
    expect(callSummaryMail(brand, 'o@example.co.uk', { ...call, status: 'answered', transferOutcome: 'connected', transferTalkSeconds: 95 }).text).toContain('Put through: You took the call and spoke for 1 min 35 s');
    expect(callSummaryMail(brand, 'o@example.co.uk', { ...call, transferOutcome: 'busy' }).text).toContain('Put through: Not taken: your line was busy');
  });

  it('names a VIP caller, and says nothing of transfers on a call without one', () => {
    const mail = callSummaryMail(brand, 'o@example.co.uk', { ...call, callerTag: 'vip' });
    expect(mail.text).toContain('Caller: VIP');
    expect(mail.text).not.toContain('Put through');
  });
});
