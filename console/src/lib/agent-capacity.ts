import type { ApiAgentCapacity } from '../../../contract/api';

const ENGINE_NAMES: Record<string, string> = { ollama: 'Ollama', whisper: 'Whisper', tts: 'TTS' };

/** "Ollama 1/4 · Whisper 0/1 · TTS 0/2", with the endpoints that are down, if any. */
export function slotsLine(engines: ApiAgentCapacity['engines']): string {
  return engines
    .map((e) => {
      const down = e.endpoints - e.healthyEndpoints;
      return `${ENGINE_NAMES[e.engine] ?? e.engine} ${e.slotsInUse}/${e.slots}${down > 0 ? ` (${down} of ${e.endpoints} down)` : ''}`;
    })
    .join(' · ');
}

/** Why the calls were turned to voicemail: refused at answer, or the stalled mid-call. */
export function turnedAwayLine(v: ApiAgentCapacity['voicemailForCapacity']): string {
  return `${v.busy} busy at answer · ${v.stalled} stalled mid-call`;
}
