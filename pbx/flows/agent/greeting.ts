import { greetingLines } from '../../../dialogue/language/greeting-languages.js';
import { fixedLines } from '../../../dialogue/language/fixed-lines.js';
import type { LanguageCode } from '../../../dialogue/language/languages.js';
import type { ConversationCore } from './conversation-core.js';
import type { ReadyAudio } from './speaker.js';
import { sentenceAudio, wavFileAudio } from './speech-audio.js';

/** The agent's first words: each greeting line in its own language's voice, in the owner's order (issue 42). */
export async function speakGreeting(core: ConversationCore, signal: AbortSignal): Promise<void> {
  const { input } = core;
  const s = core.speaker(signal);
  // A call the agent placed opens with its own lines (a call-back's disclosure), said once.
  if (input.opening) {
    for (const line of input.opening.lines) s.add(line);
    return s.finished();
  }
  for (const g of greetingLines(input.greetingLanguages ?? ['en'], core.lang.allowed, input.businessName, input.greetingRecordings)) {
    s.add(g.text, g.recording === undefined ? undefined : recordedLine(core, g.recording, g.language), g.language);
  }
  await s.finished();
}

/**
 * An owner's recorded greeting line as ready audio. A file gone since the call began (the
 * owner replaced it just now) gives the project's spoken line instead: never silence.
 */
function recordedLine(core: ConversationCore, file: string, language: LanguageCode): ReadyAudio {
  const { deps, input } = core;
  let readyAt: number | undefined;
  const audio = wavFileAudio(file, deps.media.sampleRate)
    .catch((err: unknown) => {
      deps.log.warn({ err, language }, "agent: the owner's recorded greeting could not be read; speaking the greeting line instead");
      return sentenceAudio(core.speech, fixedLines(language).greeting(input.businessName), input.voice, deps.media.sampleRate, language);
    })
    .finally(() => (readyAt = core.now()));
  return { audio, startedAt: core.now(), readyAt: () => readyAt };
}
