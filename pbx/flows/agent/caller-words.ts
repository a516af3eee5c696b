import fs from 'node:fs/promises';
import type { HeardLanguage } from '../../../dialogue/language/detection.js';
import type { ConversationCore } from './conversation-core.js';
import { writeTurnWav } from './speech-audio.js';

// The caller's audio made words, and the language rule asked of them once a turn commits.

export class CallerWords {
  /** What speech-to-text said of each transcript's language, until its turn is decided. */
  private readonly heardLanguages = new Map<string, HeardLanguage>();

  constructor(
    private readonly core: ConversationCore,
    /** The agent now answers in another language: what follows from it beyond the core (the holding phrase). */
    private readonly onLanguageChanged: () => void,
  ) {}

  async transcribe(audio: Int16Array, signal: AbortSignal): Promise<string> {
    const { deps, lang } = this.core;
    const file = await writeTurnWav(deps.workDir, audio, deps.media.sampleRate);
    try {
      const heard = await deps.engines.stt.transcribe(file, { signal, language: lang.detects ? 'auto' : undefined });
      const text = heard.text.replace(/\[[^\][]*\]|\([^()]*\)/g, ' ').replace(/\s+/g, ' ').trim(); // whisper's "[BLANK_AUDIO]", "(coughs)"
      if (text) this.heardLanguages.set(text, { language: heard.language, probability: heard.languageProbability });
      return text;
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  /** The language rule decides on the turn's words and what whisper heard; why it changed, if it did. */
  language(heard: string): 'asked' | 'detected' | undefined {
    const { deps, lang, speech, input } = this.core;
    const d = lang.hear(heard, this.heardLanguages.get(heard) ?? {});
    this.heardLanguages.clear();
    if (!d.changed) return undefined;
    deps.log.info({ language: d.language, reason: d.reason }, 'agent: answering in another language');
    deps.onLanguage?.(d.language, speech.voiceName?.(input.voice, d.language));
    this.onLanguageChanged();
    return d.reason;
  }
}
