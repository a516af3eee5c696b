// Voice options as an owner reads them: a name first, the engine's voice in brackets (SPEC.md §2
// says each option names its text-to-speech voice).

/** Piper voice ids look like `en_GB-jenny_dioco-medium`: the speaker is the middle part. */
export function friendlyVoiceName(engineVoice: string): string | null {
  const m = /^[a-z]{2}_[A-Z]{2}-([a-z]+)(?:_[a-z0-9]+)*-(?:x_low|low|medium|high)$/.exec(engineVoice);
  if (!m) return null;
  const name = m[1]!;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** "Jenny (en_GB-jenny_dioco-medium)", or the engine voice alone when it has no speaker name. */
export function voiceLabel(engineVoice: string): string {
  const name = friendlyVoiceName(engineVoice);
  return name ? `${name} (${engineVoice})` : engineVoice;
}
