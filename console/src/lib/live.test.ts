import { describe, expect, it } from 'vitest';
import type { ApiLiveCall } from '../../../contract/api';
import { applyLiveEvent, modeWord, sinceWords } from './live';

const call = (id: number, over: Partial<ApiLiveCall> = {}): ApiLiveCall => ({ id, caller: '+44 770 090 0123', fromNumber: '+447700900123', since: '2026-12-03T10:00:00.000Z', mode: 'agent', staffId: null, forName: null, testCall: false, turns: [], ...over });
const at = (iso: string) => Date.parse(iso);

describe('live call words', () => {
  it('says how long a call has gone on, in whole minutes', () => {
    expect(sinceWords('2026-12-03T10:00:00.000Z', at('2026-12-03T10:00:59.000Z'))).toBe('just now');
    expect(sinceWords('2026-12-03T10:00:00.000Z', at('2026-12-03T10:02:10.000Z'))).toBe('2 min');
    expect(sinceWords('2026-12-03T10:00:00.000Z', at('2026-12-03T11:00:00.000Z'))).toBe('1 h');
    expect(sinceWords('2026-12-03T10:00:00.000Z', at('2026-12-03T11:05:00.000Z'))).toBe('1 h 5 min');
    // A clock a little behind the server's never shows a negative time.
    expect(sinceWords('2026-12-03T10:00:00.000Z', at('2026-12-03T09:59:00.000Z'))).toBe('just now');
  });

  it('names each mode in plain words', () => {
    expect([modeWord('agent'), modeWord('voicemail'), modeWord('transfer')]).toEqual(['AI assistant', 'Voicemail', 'Put through']);
  });
});

describe('the live list follows the events', () => {
  it('snapshot replaces, call-started adds, turn sets its index (a longer last turn replaces it), call-updated replaces, call-ended removes', () => {
    let calls = applyLiveEvent([call(9)], 'snapshot', { calls: [call(1)] });
    expect(calls.map((c) => c.id)).toEqual([1]);
    calls = applyLiveEvent(calls, 'call-started', { call: call(2) });
    calls = applyLiveEvent(calls, 'turn', { callId: 2, index: 0, turn: { speaker: 'agent', text: 'Hello.', at: '2026-12-03T10:00:01.000Z' } });
    calls = applyLiveEvent(calls, 'turn', { callId: 2, index: 0, turn: { speaker: 'agent', text: 'Hello. How can I help?', at: '2026-12-03T10:00:01.000Z' } });
    calls = applyLiveEvent(calls, 'turn', { callId: 2, index: 1, turn: { speaker: 'caller', text: 'A leak.', at: '2026-12-03T10:00:05.000Z' } });
    expect(calls[1]!.turns.map((t) => t.text)).toEqual(['Hello. How can I help?', 'A leak.']);
    expect(calls[0]!.turns).toEqual([]);
    calls = applyLiveEvent(calls, 'call-updated', { call: call(1, { forName: 'Sarah', staffId: 3 }) });
    expect(calls[0]!.forName).toBe('Sarah');
    calls = applyLiveEvent(calls, 'call-ended', { callId: 1 });
    expect(calls.map((c) => c.id)).toEqual([2]);
  });
});
