import { useQueryClient } from '@tanstack/react-query';
import { Bot, Voicemail } from 'lucide-react';
import { keys } from '../../api/keys';
import { saveSettings } from '../../api/settings';
import type { AiMode } from '../../../../contract/api';
import { AGENT_LANGUAGES, LANGUAGE_NAMES } from '../../../../contract/languages';
import { Field, Textarea } from '../../components/ui';
import { answeringSummaries } from '../../lib/answering-summaries';
import { knowledgeBasePlaceholder } from '../../lib/kb-placeholder';
import { mergeApproved } from '../../lib/kb-merge';
import { toast } from '../../toast/use-toast';
import { WebsiteCard } from './website/WebsiteCard';
import CallMyLine from '../../components/CallMyLine';
import AgentTryIt from './AgentTryIt';
import { RadioCard } from './RadioCard';
import { SectionForm } from './SectionForm';
import { useSettingsForm } from './use-settings-form';
import { GreetingLanguages } from './GreetingLanguages';
import { GreetingRecordings } from './GreetingRecordings';
import { LinePreview } from './LinePreview';
import { LanguageVoices } from './LanguageVoices';
import { CollapsibleCard, CollapsibleCards } from './CollapsibleCards';

/** How calls are answered: voicemail or the AI agent, the agent's knowledge base, and trying it. */
export default function AnsweringSection() {
  const { user, form, saved, set, adopt, save, saving } = useSettingsForm(['aiMode', 'knowledgeBase', 'agentLanguages', 'greetingLanguages', 'languageVoices'] as const);
  const qc = useQueryClient();
  const languages = form.agentLanguages ?? ['en'];
  const greeting = form.greetingLanguages ?? ['en'];
  const voices = form.languageVoices ?? {};
  /** Unticking a language the greeting uses takes it out of the greeting too, and drops its voice (the server would refuse either). */
  const setLanguages = (next: string[]) => {
    set('agentLanguages', next);
    if (greeting.some((c) => c !== 'en' && !next.includes(c))) set('greetingLanguages', ['en']);
    if (Object.keys(voices).some((c) => !next.includes(c))) set('languageVoices', Object.fromEntries(Object.entries(voices).filter(([c]) => next.includes(c))));
  };
  const kb = form.knowledgeBase ?? '';
  /** The ticks (and the greeting's languages) a recording belongs to, saved with it when they are not yet. */
  const ticksUnsaved = JSON.stringify(user?.agentLanguages ?? ['en']) !== JSON.stringify(languages) || JSON.stringify(user?.greetingLanguages ?? ['en']) !== JSON.stringify(greeting);
  const saveTicks = async () => {
    await saveSettings({ agentLanguages: languages, greetingLanguages: greeting });
    adopt('agentLanguages', languages);
    adopt('greetingLanguages', greeting);
    await qc.invalidateQueries({ queryKey: keys.me });
  };
  /**
   * A website draft approved: the text area shows the knowledge base as the server now holds it.
   * Unsaved edits in it are kept, with the approved lines carried into them (lib/kb-merge.ts).
   */
  const takeApproved = (after: string) => {
    const merged = mergeApproved(saved.knowledgeBase ?? '', kb, after);
    adopt('knowledgeBase', after);
    if (merged.outcome !== 'clean') set('knowledgeBase', merged.text);
    if (merged.outcome === 'kept') {
      toast({
        title: 'Your unsaved edits are kept',
        description: 'The approved answer changes an entry you are editing. Save Changes keeps your wording; reload the page to see the approved one instead.',
      });
    }
  };
  const summary = answeringSummaries({ aiMode: form.aiMode, knowledgeBase: kb, agentLanguages: languages, greetingLanguages: greeting, greetingRecordings: user?.greetingRecordings ?? [], voicemailGreetingRecording: user?.voicemailGreetingRecording ?? false });
  // A card holding an unsaved change stays open on a phone: closed, the change would be out of sight.
  const modeUnsaved = form.aiMode !== (user?.aiMode ?? 'voicemail');
  const kbUnsaved = kb !== (user?.knowledgeBase ?? '');
  const languagesUnsaved = ticksUnsaved || JSON.stringify(user?.languageVoices ?? {}) !== JSON.stringify(voices);
  return (
    <SectionForm label="Answering" onSave={save} saving={saving}>
      <CollapsibleCards>
        <CollapsibleCard title="AI Voice Agent Mode" description="Choose how your calls are answered" summary={summary.mode} keepOpen={modeUnsaved}>
          <fieldset className="grid gap-3 p-5 md:grid-cols-2">
            <legend className="sr-only">AI Voice Agent Mode</legend>
            <RadioCard<AiMode>
              name="aiMode"
              value="voicemail"
              current={form.aiMode}
              onChange={(v) => set('aiMode', v)}
              title="Voicemail Only"
              text="Play greeting, record message, and send you a notification with transcription and summary."
              icon={<Voicemail className="h-5 w-5" aria-hidden />}
            />
            <RadioCard<AiMode>
              name="aiMode"
              value="agent"
              current={form.aiMode}
              onChange={(v) => set('aiMode', v)}
              title="AI Voice Agent"
              text="AI agent answers questions based on your knowledge base, logs unanswered questions for training."
              icon={<Bot className="h-5 w-5" aria-hidden />}
            />
          </fieldset>
        </CollapsibleCard>

        {form.aiMode === 'agent' && (
          <CollapsibleCard title="Knowledge Base" description="What your AI agent knows about your business" summary={summary.knowledgeBase} keepOpen={kbUnsaved}>
            <div className="grid gap-2 p-5">
              <Field
                label="Knowledge Base"
                hint={<>Start each entry with "Q:" and the question, then "A:" and the answer on the next line. Separate entries with a blank line.</>}
              >
                <Textarea rows={12} value={kb} onChange={(e) => set('knowledgeBase', e.target.value)} placeholder={knowledgeBasePlaceholder(user?.industry)} className="font-mono" />
              </Field>
              <p className="text-right text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
                {kb.length} characters
              </p>
            </div>
          </CollapsibleCard>
        )}

        {form.aiMode === 'agent' && <WebsiteCard Frame={CollapsibleCard} onKnowledgeBase={takeApproved} />}

        {form.aiMode === 'agent' && (
          <CollapsibleCard
            title="Caller Languages"
            description="The agent answers a caller in their own language when it is ticked here; you still read English"
            summary={summary.languages}
            keepOpen={languagesUnsaved}
          >
            <fieldset className="grid gap-2 p-5 sm:grid-cols-2 md:grid-cols-4">
              <legend className="sr-only">Caller Languages</legend>
              {AGENT_LANGUAGES.map((code) => (
                <label key={code} className="flex min-h-6 items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-indigo-600"
                    checked={code === 'en' || languages.includes(code)}
                    // English is the box's own language: every fixed line falls back to it.
                    disabled={code === 'en'}
                    onChange={(e) => setLanguages(e.target.checked ? [...languages, code] : languages.filter((c) => c !== code))}
                  />
                  {LANGUAGE_NAMES[code]}
                </label>
              ))}
            </fieldset>
            <GreetingLanguages allowed={languages} value={greeting} onChange={(v) => set('greetingLanguages', v)} />
            <GreetingRecordings languages={greeting} recorded={user?.greetingRecordings ?? []} saveTicks={ticksUnsaved ? saveTicks : undefined} />
            <LanguageVoices languages={languages} value={voices} onChange={(v) => set('languageVoices', v)} defaultVoice={user?.voicePreference ?? 'female'} />
            <LinePreview languages={languages} defaultVoice={user?.voicePreference ?? 'female'} />
          </CollapsibleCard>
        )}

        {/* The greeting's business name and voice are the saved ones: they are edited under Greeting. */}
        <AgentTryIt aiMode={form.aiMode} knowledgeBase={form.knowledgeBase} Frame={CollapsibleCard} />

        <CallMyLine Frame={CollapsibleCard} />
      </CollapsibleCards>
    </SectionForm>
  );
}
