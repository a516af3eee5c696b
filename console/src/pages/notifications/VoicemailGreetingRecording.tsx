import { deleteVoicemailGreetingRecording, putVoicemailGreetingRecording, voicemailGreetingRecordingUrl } from '../../api/settings';
import { useSession } from '../../api/session';
import { GreetingRecorder } from './GreetingRecordings';

/**
 * The voicemail greeting in the owner's own voice (issue 57), under the greeting it replaces:
 * the same recorder as the agent's greeting lines. The hint says what callers hear with it, as
 * the call does (pbx/flows/voicemail/voicemail-greeting.ts).
 */
export function VoicemailGreetingRecording() {
  const { user } = useSession();
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-300">Your own voicemail greeting</legend>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Record your greeting in your own voice (up to 30 seconds), or upload a WAV file. Callers leaving a voicemail then hear your recording instead of the greeting above, followed by "For quality purposes, this call is being recorded." when the greeting above says the call is recorded, then the tone.
      </p>
      <GreetingRecorder
        name="Voicemail"
        url={voicemailGreetingRecordingUrl}
        put={putVoicemailGreetingRecording}
        del={deleteVoicemailGreetingRecording}
        has={user?.voicemailGreetingRecording ?? false}
      />
    </fieldset>
  );
}
