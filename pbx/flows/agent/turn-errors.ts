// Why an agent action stopped: the two ends that are not failures of an engine to answer.

/** Barge-in, a newer action, or the call's end: the action in progress is dropped. */
export class TurnCancelled extends Error {
  override name = 'TurnCancelled';
}

/** The TTS engine could not voice a line: nothing can be said in this conversation. */
export class SpeechUnavailable extends Error {
  override name = 'SpeechUnavailable';
}
