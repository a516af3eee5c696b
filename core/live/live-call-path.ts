import type { CallPath } from '../ports/call-path.js';
import type { LiveCallRegistry } from './registry.js';

// The registry learns a call's start, its person and its end from the writes the PBX makes
// anyway (CallPath, the PBX's one port to the core's tables), so no flow has to remember to
// report them: a row opened is a call in progress, a row made final is one that ended.

/** `callPath` with each call's start, person, mode and end also told to `live`. */
export function withLiveCalls(callPath: CallPath, live: LiveCallRegistry): CallPath {
  return {
    ...callPath,
    async openCall(call) {
      const opened = await callPath.openCall(call);
      // "Not available" calls only hear a message and go: nothing to watch or end.
      if (!opened.call.endedAt && call.mode !== 'unavailable') {
        live.started({ callId: opened.call.id, userId: call.userId, fromNumber: call.fromNumber, startedAt: call.createdAt, mode: call.mode, testCall: call.testCall ?? false });
      }
      return opened;
    },
    // The port's own promises are handed back as they are (no async wrapper of ours around them):
    // with one, a VIP's put-through on the real PBX came out 'no-answer' instead of 'busy'.
    attributeCall(callId, staffId, note) {
      const done = callPath.attributeCall(callId, staffId, note);
      void done.then(() => live.attributed(callId, staffId), () => undefined);
      return done;
    },
    markAgentBusy(callId) {
      live.mode(callId, 'voicemail');
      return callPath.markAgentBusy(callId);
    },
    markAgentVoicemail(callId, reason) {
      live.mode(callId, 'voicemail');
      return callPath.markAgentVoicemail(callId, reason);
    },
    async finishCall(id, result) {
      // Ended as soon as the row is being made final: the channel has already gone.
      live.ended(id);
      return callPath.finishCall(id, result);
    },
  };
}
