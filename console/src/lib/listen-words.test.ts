import { describe, expect, it } from 'vitest';
import { liveActions, liveHistoryLine, takenOverWords } from './listen-words';

describe('Listen and Take over on a live call’s card', () => {
  it('offers Take over only on a call the assistant answers', () => {
    expect(liveActions('agent', 'idle')).toEqual({ listen: true, stopListening: false, takeOver: true, hangUp: false });
    expect(liveActions('voicemail', 'idle')).toEqual({ listen: true, stopListening: false, takeOver: false, hangUp: false });
  });

  it('while listening offers Stop listening and Take over, and nothing twice while connecting', () => {
    expect(liveActions('agent', 'listening')).toEqual({ listen: false, stopListening: true, takeOver: true, hangUp: false });
    expect(liveActions('agent', 'connecting')).toEqual({ listen: false, stopListening: false, takeOver: false, hangUp: false });
    expect(liveActions('agent', 'on-call')).toEqual({ listen: false, stopListening: false, takeOver: false, hangUp: true });
  });

  it('says who took a call over and when, in London time', () => {
    expect(takenOverWords('Sarah', '2026-07-01T13:05:00Z')).toBe('Taken over by Sarah at 14:05');
    expect(takenOverWords('the owner', '2026-01-10T09:30:00Z')).toBe('Taken over by the owner at 09:30');
    expect(takenOverWords(null, null)).toBeNull();
  });

  it('says how a call was taken over when the row knows it', () => {
    expect(takenOverWords('Sam', '2026-07-01T13:05:00Z', 'browser')).toBe('Taken over by Sam at 14:05 (in the browser)');
    expect(takenOverWords('Sam', '2026-07-01T13:05:00Z', 'phone')).toBe('Taken over by Sam at 14:05 (by phone)');
  });

  it('words each line of a call’s live history, in London time', () => {
    expect(liveHistoryLine({ event: 'listen', by: 'Sam', at: '2026-07-01T13:03:00Z' })).toBe('Listened in by Sam at 14:03');
    expect(liveHistoryLine({ event: 'take-over', by: 'Sam', via: 'phone', at: '2026-07-01T13:05:00Z' })).toBe('Taken over by Sam at 14:05 (by phone)');
    expect(liveHistoryLine({ event: 'ended', by: 'the owner', at: '2026-12-01T14:06:00Z' })).toBe('Ended by the owner from the Live page at 14:06');
  });
});
