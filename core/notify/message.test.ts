import { describe, expect, it } from 'vitest';
import { callbackReminderBody, forPerson, notificationBody, repeatCallerBody, type CallFacts } from './message.js';

// 13:05 UTC in summer is 14:05 in London; in winter it is 13:05.
const summer = new Date('2026-07-01T13:05:00Z');
const winter = new Date('2026-12-01T13:05:00Z');
const base: CallFacts = { status: 'voicemail', mode: 'voicemail', fromNumber: '+447700900123', createdAt: summer, transcription: null, aiSummary: null };

describe('notificationBody', () => {
  it('texts a missed call without any summary, in London time', () => {
    expect(notificationBody({ ...base, status: 'missed' })).toBe('Missed call from +447700900123 at 14:05. No message was left.');
    expect(notificationBody({ ...base, status: 'missed', createdAt: winter })).toBe('Missed call from +447700900123 at 13:05. No message was left.');
  });

  it('names a withheld caller', () => {
    expect(notificationBody({ ...base, status: 'missed', fromNumber: '' })).toBe('Missed call from a withheld number at 14:05. No message was left.');
  });

  it('leads with the summary when there is one', () => {
    expect(notificationBody({ ...base, transcription: 'long words', aiSummary: 'Sarah wants a boiler quote.' })).toBe(
      'New voicemail from +447700900123 at 14:05: Sarah wants a boiler quote.',
    );
  });

  it('says what the agent booked after the summary (issue 41), and nothing when it booked nothing', () => {
    const agent: CallFacts = { ...base, status: 'answered', mode: 'agent', aiSummary: 'Sam wants a boiler service.' };
    expect(notificationBody({ ...agent, booked: 'Boiler service, Thu 3 Dec, 10:00' })).toBe(
      'Call answered by your AI receptionist from +447700900123 at 14:05: Sam wants a boiler service. Booked: Boiler service, Thu 3 Dec, 10:00.',
    );
    expect(notificationBody({ ...agent, booked: null })).toBe('Call answered by your AI receptionist from +447700900123 at 14:05: Sam wants a boiler service.');
  });

  it('quotes the transcript when the summary is not available', () => {
    expect(notificationBody({ ...base, transcription: 'Hi it is Sarah, call me.' })).toBe(
      'New voicemail from +447700900123 at 14:05. Message: "Hi it is Sarah, call me."',
    );
    const long = notificationBody({ ...base, transcription: 'word '.repeat(200) });
    expect(long.length).toBeLessThan(400);
  });

  it('says the summary follows when there is neither', () => {
    expect(notificationBody(base)).toBe('New voicemail from +447700900123 at 14:05. The transcript and summary will follow in your call log.');
  });

  it('says the owner took a put-through call, and for how long', () => {
    expect(notificationBody({ ...base, status: 'answered', transferOutcome: 'connected', transferTalkSeconds: 130 })).toBe(
      'Call put through to you from +447700900123 at 14:05. You spoke for 2 min 10 s.',
    );
  });

  it('adds why a put-through did not happen after the message', () => {
    expect(notificationBody({ ...base, aiSummary: 'Leak under the sink.', transferOutcome: 'no-answer' })).toBe(
      'New voicemail from +447700900123 at 14:05: Leak under the sink. (We tried to put them through: no answer.)',
    );
    expect(notificationBody({ ...base, aiSummary: 'Leak.', transferOutcome: 'busy' })).toContain('(We tried to put them through: your line was busy.)');
    expect(notificationBody({ ...base, aiSummary: 'Leak.', transferOutcome: 'declined' })).toContain('(We tried to put them through: you chose voicemail.)');
  });

  it('leads a VIP caller’s text with VIP', () => {
    expect(notificationBody({ ...base, aiSummary: 'Leak.', callerTag: 'vip' })).toBe('VIP: New voicemail from +447700900123 at 14:05: Leak.');
    expect(notificationBody({ ...base, aiSummary: 'Leak.', callerTag: 'vip', urgency: 'urgent' })).toBe('URGENT: VIP: New voicemail from +447700900123 at 14:05: Leak.');
  });

  it('says when the AI receptionist took the call', () => {
    expect(notificationBody({ ...base, status: 'answered', mode: 'agent', aiSummary: 'Asked about prices.' })).toBe(
      'Call answered by your AI receptionist from +447700900123 at 14:05: Asked about prices.',
    );
  });

  it('keeps the text in the GSM-7 alphabet so it is not sent as 70-character UCS-2 segments', () => {
    const body = notificationBody({ ...base, aiSummary: 'Sarah’s “boiler” – urgent…' });
    expect(body).toBe('New voicemail from +447700900123 at 14:05: Sarah\'s "boiler" - urgent...');
  });
  it('leads an urgent call\'s text with URGENT, and only an urgent one\'s', () => {
    expect(notificationBody({ ...base, aiSummary: 'Leak in the ceiling.', urgency: 'urgent' })).toBe('URGENT: New voicemail from +447700900123 at 14:05: Leak in the ceiling.');
    expect(notificationBody({ ...base, aiSummary: 'Wants a quote.', urgency: 'normal' })).toBe('New voicemail from +447700900123 at 14:05: Wants a quote.');
    expect(notificationBody({ ...base, aiSummary: 'Sales call.', urgency: 'low' })).toBe('New voicemail from +447700900123 at 14:05: Sales call.');
  });
});

describe('repeatCallerBody', () => {
  it('says how many times in how many minutes, with the latest call in London time', () => {
    expect(repeatCallerBody('+447700900123', 3, 20, summer)).toBe('+447700900123 has called 3 times in 20 minutes (latest at 14:05). They may need you urgently.');
  });
});

describe('the reply reference', () => {
  it('ends a text about a caller with a number with "Reply DONE <id> when called back."', () => {
    expect(notificationBody({ ...base, id: 41, status: 'missed' })).toBe('Missed call from +447700900123 at 14:05. No message was left. Reply DONE 41 when called back.');
    expect(notificationBody({ ...base, id: 41, aiSummary: 'Leak.', urgency: 'urgent' })).toBe('URGENT: New voicemail from +447700900123 at 14:05: Leak. Reply DONE 41 when called back.');
  });
  it('leaves it off for a withheld number, which cannot be called back', () => {
    expect(notificationBody({ ...base, id: 41, status: 'missed', fromNumber: '' })).toBe('Missed call from a withheld number at 14:05. No message was left.');
  });
});

describe('callbackReminderBody', () => {
  it('names the caller, what they left and when (London day and time), with the reference', () => {
    expect(callbackReminderBody({ id: 41, status: 'voicemail', fromNumber: '+447700900123', createdAt: summer })).toBe(
      'Reminder: you have not called +447700900123 back yet (voicemail on 01/07 at 14:05). Reply DONE 41 when called back.',
    );
  });
});

describe('forPerson (issue 58: the owner\'s copy of a member\'s text)', () => {
  it('names whose message it is, after the URGENT and VIP markers', () => {
    expect(forPerson('New voicemail from +447700900123 at 14:05: A leak.', 'Sarah')).toBe('Message for Sarah: New voicemail from +447700900123 at 14:05: A leak.');
    expect(forPerson('URGENT: VIP: Missed call from +447700900123 at 14:05.', 'Tom')).toBe('URGENT: VIP: Message for Tom: Missed call from +447700900123 at 14:05.');
  });

  it('keeps a name typed with curly quotes inside the GSM alphabet', () => {
    expect(forPerson('Missed call.', 'D’Arcy')).toBe("Message for D'Arcy: Missed call.");
  });
});
