// Listen and Take over on a live call's card (issue 54): the words the component shows, and
// which buttons a call offers, as pure rules; and what Call Details says of a call's live history.
import type { ApiLiveHistoryEntry } from '../../../contract/api';
import type { TakeOverVia } from '../../../contract/enums';

export type ListenState = 'idle' | 'connecting' | 'listening' | 'taking-over' | 'dialling-phone' | 'on-call' | 'ended' | 'failed';

export const LISTEN_STATE_TEXT: Record<ListenState, string> = {
  idle: '',
  connecting: 'Connecting…',
  listening: 'Listening: the caller cannot hear you',
  'taking-over': 'Taking over…',
  'dialling-phone': 'Calling your phone: answer it to take the call',
  'on-call': 'You are on the call',
  ended: 'Ended',
  failed: 'Could not connect',
};

/** What a call's card offers now: Listen for any call in progress, Take over only while the assistant answers it. */
export function liveActions(mode: string, state: ListenState): { listen: boolean; stopListening: boolean; takeOver: boolean; hangUp: boolean } {
  const busy = state === 'connecting' || state === 'taking-over' || state === 'dialling-phone';
  return {
    listen: !busy && state !== 'listening' && state !== 'on-call',
    stopListening: state === 'listening',
    takeOver: mode === 'agent' && !busy && state !== 'on-call',
    hangUp: state === 'on-call',
  };
}

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' });
/** The time of day as the owner's clock shows it (Europe/London, the box's businesses are in the UK). */
const timeOf = (at: string) => clock.format(new Date(at));

const VIA_WORDS: Record<TakeOverVia, string> = { browser: 'in the browser', phone: 'by phone' };

/**
 * "Taken over by Sarah at 14:05" for a call's details (Europe/London), with how when known
 * ("… at 14:05 (by phone)"); null when nobody took it over.
 */
export function takenOverWords(by: string | null, at: string | null, via?: TakeOverVia | null): string | null {
  if (!by || !at) return null;
  return `Taken over by ${by} at ${timeOf(at)}${via ? ` (${VIA_WORDS[via]})` : ''}`;
}

/** One line of a call's live history: "Listened in by Sam at 14:03", "Ended by Sam from the Live page at 14:06". */
export function liveHistoryLine(entry: Pick<ApiLiveHistoryEntry, 'event' | 'by' | 'via' | 'at'>): string {
  switch (entry.event) {
    case 'listen':
      return `Listened in by ${entry.by} at ${timeOf(entry.at)}`;
    case 'take-over':
      return takenOverWords(entry.by, entry.at, entry.via) ?? '';
    case 'ended':
      return `Ended by ${entry.by} from the Live page at ${timeOf(entry.at)}`;
  }
}
