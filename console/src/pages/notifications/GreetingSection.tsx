import { Mic } from 'lucide-react';
import type { VoicePreference } from '../../../../contract/api';
import { useMeta } from '../../api/session';
import { Card, CardHeader, Field, Input, Textarea } from '../../components/ui';
import { voiceLabel } from '../../lib/voices';
import { PlayGreeting } from './PlayGreeting';
import { RadioCard } from './RadioCard';
import { SectionForm } from './SectionForm';
import { useSettingsForm } from './use-settings-form';
import { VoicemailGreetingRecording } from './VoicemailGreetingRecording';

/** What callers hear when the number answers: business name, custom greeting and voice. */
export default function GreetingSection() {
  const meta = useMeta();
  const { form, set, save, saving } = useSettingsForm(['businessName', 'callGreeting', 'voicePreference'] as const);
  return (
    <SectionForm label="Greeting" onSave={save} saving={saving}>
      <Card>
        <CardHeader title="Call Greeting" description="What callers hear when your number answers" />
        <div className="grid gap-5 p-5">
          <Field
            label="Business Name (Optional)"
            hint={`When given, the greeting is "You've reached [Business Name]. For quality purposes, this call is being recorded. Please leave your name and message after the tone."`}
          >
            <Input value={form.businessName ?? ''} onChange={(e) => set('businessName', e.target.value)} />
          </Field>
          <Field label="Custom Greeting (Optional)" hint="A custom greeting replaces the business-name greeting. Leave both empty to use the default greeting.">
            <Textarea rows={4} value={form.callGreeting ?? ''} onChange={(e) => set('callGreeting', e.target.value)} />
          </Field>
          <fieldset className="grid gap-3">
            <legend className="mb-2 flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-300">
              <Mic className="h-4 w-4" aria-hidden /> Voice Preference
            </legend>
            <div className="grid gap-3 md:grid-cols-2">
              {(['female', 'male'] as VoicePreference[]).map((v) => (
                <RadioCard<VoicePreference>
                  key={v}
                  name="voicePreference"
                  value={v}
                  current={form.voicePreference}
                  onChange={(x) => set('voicePreference', x)}
                  title={v === 'female' ? 'Female Voice (UK)' : 'Male Voice (UK)'}
                  text={meta.data ? voiceLabel(meta.data.voices[v]) : ''}
                  icon={<Mic className="h-5 w-5" aria-hidden />}
                />
              ))}
            </div>
          </fieldset>
          <PlayGreeting businessName={form.businessName} callGreeting={form.callGreeting} voice={form.voicePreference} />
          <VoicemailGreetingRecording />
        </div>
      </Card>
    </SectionForm>
  );
}
