/**
 * The ARI event types the Stasis app acts on; Asterisk is asked to send only these
 * (PUT /applications/{app}/eventFilter, since 13.26/16.3: shared/ari/api-docs/applications.json).
 *
 * Issue 47: a voicemail call otherwise brings dozens of events nothing reads (ChannelVarset for
 * every variable the dialplan, TALK_DETECT and the recorder set, ChannelDialplan per priority,
 * PlaybackContinuing, ChannelConnectedLine, RTP QoS variables at hang-up...), each one JSON that
 * Asterisk builds and sends and the core parses and routes. Every type a flow waits for must be
 * here: a missing one is a step that never ends. The list is checked against the code's own
 * use (pbx/ari/event-filter.test.ts) and the ARI simulator applies the filter as Asterisk does,
 * so every simulated call flow runs with it.
 */
export const APP_EVENTS = [
  // the call's life: arrival (also owners' phones answering a transfer), answer, hang-up, gone
  'StasisStart',
  'StasisEnd',
  'ChannelStateChange',
  'ChannelHangupRequest',
  'ChannelDestroyed',
  // the owner's key during a warm transfer
  'ChannelDtmfReceived',
  // greeting, beep and prompts
  'PlaybackStarted',
  'PlaybackFinished',
  // the caller's message
  'RecordingStarted',
  'RecordingFinished',
  'RecordingFailed',
] as const;

/** The request body ARI takes: an allowed list (an empty list would mean every event). */
export function eventFilterBody(types: readonly string[]): { allowed: Array<{ type: string }> } {
  return { allowed: types.map((type) => ({ type })) };
}
