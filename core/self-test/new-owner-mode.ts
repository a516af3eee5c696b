import type { AiMode } from '../../contract/api.js';
import { SELF_TEST_SLOW_FIRST_AUDIO_MS } from '../../contract/schemas/quality.js';

// The mode a new owner starts in. SPEC's default (voicemail) stands on a box whose self-test
// passed or whose operator accepted agent mode; otherwise new owners are kept in voicemail mode
// until the operator accepts it (issue 60). Owners already in agent mode are never changed here:
// this is asked only when an owner is approved.

export interface NewOwnerModeInput {
  /** SELF_TEST=off: the box does not judge its own engines, SPEC's default stands. */
  selfTestEnabled: boolean;
  /** The agent's first audio p50 in the newest self-test on the current engines; undefined: none completed yet; null: it timed no turn. */
  firstAudioP50Ms: number | null | undefined;
  /** The operator accepted agent mode for these engines (POST /api/admin/quality/accept-agent-mode). */
  accepted: boolean;
  specDefault: AiMode;
}

export interface NewOwnerMode {
  mode: AiMode;
  /** Why new owners are kept in voicemail mode; null when they are not. */
  keptInVoicemail: string | null;
}

export function newOwnerMode(i: NewOwnerModeInput): NewOwnerMode {
  const open = { mode: i.specDefault, keptInVoicemail: null };
  if (!i.selfTestEnabled || i.accepted) return open;
  if (i.firstAudioP50Ms === undefined) return { mode: 'voicemail', keptInVoicemail: 'No self-test has completed on these engines yet.' };
  if (i.firstAudioP50Ms === null) return { mode: 'voicemail', keptInVoicemail: 'The last self-test timed no answer from the assistant.' };
  if (i.firstAudioP50Ms > SELF_TEST_SLOW_FIRST_AUDIO_MS) return { mode: 'voicemail', keptInVoicemail: `The assistant's first audio p50 (${Math.round(i.firstAudioP50Ms)} ms) is over ${SELF_TEST_SLOW_FIRST_AUDIO_MS} ms.` };
  return open;
}
