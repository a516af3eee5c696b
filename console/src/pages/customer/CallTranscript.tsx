import type { ApiCallLog } from '../../../../contract/api';
import { LANGUAGE_NAMES, type AgentLanguage } from '../../../../contract/languages';

const BLOCK = 'max-h-60 overflow-y-auto whitespace-pre-wrap wrap-anywhere rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60';

/** The English name of the language a call was in; null for English throughout (issue 42). */
export function callLanguageName(code: string | null): string | null {
  if (!code || code === 'en') return null;
  return LANGUAGE_NAMES[code as AgentLanguage] ?? null;
}

/**
 * Call Details' transcript. A caller who spoke another language keeps their own words (marked
 * with their language, so a screen reader reads them in it, and `dir="auto"` for Urdu's
 * script) with the English translation beside them on a wide screen, under them on a phone.
 */
export function CallTranscript({ call }: { call: Pick<ApiCallLog, 'transcription' | 'callerLanguage' | 'transcriptEnglish'> }) {
  if (!call.transcription) return null;
  const language = callLanguageName(call.callerLanguage);
  if (!language) {
    return (
      <section>
        <h3 className="mb-1.5 text-sm font-semibold">Full Transcript</h3>
        <p className={BLOCK}>{call.transcription}</p>
      </section>
    );
  }
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <section>
        <h3 className="mb-1.5 text-sm font-semibold">{`Full Transcript (${language}, as spoken)`}</h3>
        <p className={BLOCK} lang={call.callerLanguage!} dir="auto">
          {call.transcription}
        </p>
      </section>
      <section>
        <h3 className="mb-1.5 text-sm font-semibold">English Translation</h3>
        {call.transcriptEnglish ? (
          <p className={BLOCK} lang="en">
            {call.transcriptEnglish}
          </p>
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
            Not translated yet: the English appears here once the local model has translated the call.
          </p>
        )}
      </section>
    </div>
  );
}

