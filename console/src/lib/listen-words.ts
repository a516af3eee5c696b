// Listen and Take over on a live call's card (issue 54): the words the component shows, and
// which buttons a call offers, as pure rules.

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

/** "Taken over by Sarah at 14:05" for a call's details (Europe/London); null when nobody took it over. */
export function takenOverWords(by: string | null, at: string | null): string | null {
  if (!by || !at) return null;
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' }).format(new Date(at));
  return `Taken over by ${by} at ${time}`;
}
