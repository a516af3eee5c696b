import type { ApiLiveCall, LiveEventData, LiveMode } from '../../../contract/api';

// The Live page's words and its list's one rule (issue 54): how long a call has gone on, what
// its mode is called, and how each event of GET /api/live/events changes the list.

/** "just now", "1 min", "12 min", "1 h 5 min": how long since `sinceIso`, at `nowMs`. */
export function sinceWords(sinceIso: string, nowMs: number): string {
  const minutes = Math.floor(Math.max(0, nowMs - Date.parse(sinceIso)) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

const MODE_WORDS: Record<LiveMode, string> = { agent: 'AI assistant', voicemail: 'Voicemail', transfer: 'Put through' };

export function modeWord(mode: LiveMode): string {
  return MODE_WORDS[mode];
}

/** The list after one event; calls oldest first, as the server keeps them. */
export function applyLiveEvent<N extends keyof LiveEventData>(calls: ApiLiveCall[], name: N, data: LiveEventData[N]): ApiLiveCall[] {
  switch (name) {
    case 'snapshot':
      return (data as LiveEventData['snapshot']).calls;
    case 'call-started':
    case 'call-updated': {
      const call = (data as LiveEventData['call-started']).call;
      return calls.some((c) => c.id === call.id) ? calls.map((c) => (c.id === call.id ? call : c)) : [...calls, call];
    }
    case 'turn': {
      const { callId, index, turn } = data as LiveEventData['turn'];
      return calls.map((c) => {
        if (c.id !== callId) return c;
        const turns = [...c.turns];
        turns[index] = turn;
        return { ...c, turns };
      });
    }
    case 'call-ended':
      return calls.filter((c) => c.id !== (data as LiveEventData['call-ended']).callId);
    default:
      return calls;
  }
}

export const LIVE_EVENT_NAMES: readonly (keyof LiveEventData)[] = ['snapshot', 'call-started', 'turn', 'call-updated', 'call-ended'];
