import type { ApiEngines } from '../../../contract/api';

/**
 * The admin dashboard's line on the language model (issue 60), or null once it is ready (nothing
 * to say). `time` formats the next retry in the admin's clock (e.g. "14:05").
 */
export function languageModelLine(m: ApiEngines['languageModel'], time: (iso: string) => string): string | null {
  switch (m.state) {
    case 'ready':
      return null;
    case 'checking':
      return 'Checking the language model…';
    case 'downloading':
      return `Downloading the language model: ${m.percent ?? 0} %. Agent-mode calls are answered in voicemail mode until it is ready.`;
    case 'failed':
      return `The language model could not be downloaded: ${m.error ?? 'no reason given'}.${m.nextRetryAt ? ` Trying again at ${time(m.nextRetryAt)}.` : ''}`;
  }
}
