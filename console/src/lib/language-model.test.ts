import { describe, expect, it } from 'vitest';
import { languageModelLine } from './language-model';

const time = (iso: string) => iso.slice(11, 16);

describe('languageModelLine (the admin dashboard)', () => {
  it('shows the download with its percentage', () => {
    expect(languageModelLine({ state: 'downloading', model: 'llama3.2:3b', percent: 45 }, time)).toBe(
      'Downloading the language model: 45 %. Agent-mode calls are answered in voicemail mode until it is ready.',
    );
  });

  it('says a failed pull in plain words with the next retry', () => {
    expect(languageModelLine({ state: 'failed', model: 'llama3.2:3b', error: 'Ollama could not pull llama3.2:3b: no such host', nextRetryAt: '2026-12-03T14:05:00.000Z' }, time)).toBe(
      'The language model could not be downloaded: Ollama could not pull llama3.2:3b: no such host. Trying again at 14:05.',
    );
  });

  it('says nothing once the model is ready', () => {
    expect(languageModelLine({ state: 'ready', model: 'llama3.2:3b' }, time)).toBeNull();
  });
});
