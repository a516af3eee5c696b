import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Bot, CalendarClock, Mail, MessageSquare, Mic, Voicemail } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { AiMode, ApiUser, SettingsUpdate, VoicePreference } from '../../../../contract/api';
import { saveSettings } from '../../api/settings';
import { keys } from '../../api/keys';
import { useMeta, useSession } from '../../api/session';
import { Button, Card, CardHeader, Field, Input, PageHeader, Select, Switch, Textarea, cx } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { knowledgeBasePlaceholder } from '../../lib/kb-placeholder';
import { voiceLabel } from '../../lib/voices';
import { useUnsavedChangesWarning } from '../../components/use-unsaved-changes';
import { toast } from '../../toast/use-toast';
import AgentTryIt from './AgentTryIt';
import CallMyLine from '../../components/CallMyLine';
import CallHandling from './CallHandling';
import ConfirmDestinations from './ConfirmDestinations';
import { PlayGreeting } from './PlayGreeting';
import WebhookSettings from './WebhookSettings';

function formFrom(user: ApiUser | null): Required<SettingsUpdate> {
  return {
    businessName: user?.businessName ?? '',
    callGreeting: user?.callGreeting ?? '',
    voicePreference: user?.voicePreference ?? 'female',
    whatsappEnabled: user?.whatsappEnabled ?? false,
    smsEnabled: user?.smsEnabled ?? true,
    notificationNumber: user?.notificationNumber ?? '',
    aiMode: user?.aiMode ?? 'voicemail',
    knowledgeBase: user?.knowledgeBase ?? '',
    callbackReminderHours: user?.callbackReminderHours ?? null,
    emailSummariesEnabled: user?.emailSummariesEnabled ?? false,
    summaryEmail: user?.summaryEmail ?? '',
    weeklyDigestEnabled: user?.weeklyDigestEnabled ?? true,
  };
}

/** The reminder choices; a value set another way (the API takes 1 to 168) is offered too. */
const REMINDER_HOURS = [1, 2, 4, 8, 24, 48];
const reminderChoices = (current: number | null) =>
  current === null || REMINDER_HOURS.includes(current) ? REMINDER_HOURS : [...REMINDER_HOURS, current].sort((a, b) => a - b);

function RadioCard<T extends string>({
  name,
  value,
  current,
  onChange,
  title,
  text,
  icon,
}: {
  name: string;
  value: T;
  current: T;
  onChange: (v: T) => void;
  title: string;
  text: string;
  icon: React.ReactNode;
}) {
  const checked = value === current;
  return (
    <label
      className={cx(
        'flex cursor-pointer gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
        checked ? 'border-indigo-500 bg-indigo-50/60 dark:border-indigo-500 dark:bg-indigo-950/40' : 'border-slate-200 hover:border-slate-300 dark:border-slate-700',
      )}
    >
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} className="mt-1 h-4 w-4 accent-indigo-600" />
      <span className="mt-0.5 text-indigo-600 dark:text-indigo-400">{icon}</span>
      <span>
        <span className="block text-sm font-semibold">{title}</span>
        <span className="mt-0.5 block text-sm text-slate-600 dark:text-slate-400">{text}</span>
      </span>
    </label>
  );
}

export default function NotificationSettings() {
  const { user } = useSession();
  const meta = useMeta();
  const qc = useQueryClient();
  const [form, setForm] = useState(() => formFrom(user));
  // What the server holds: the form as loaded, then as last saved.
  const [saved, setSaved] = useState(form);
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  useUnsavedChangesWarning(dirty);
  const set = <K extends keyof SettingsUpdate>(k: K, v: Required<SettingsUpdate>[K]) => setForm((f) => ({ ...f, [k]: v }));
  const smsId = useId();
  const waId = useId();
  const emailId = useId();
  const digestId = useId();

  const save = useMutation({
    mutationFn: saveSettings,
    onSuccess: (_data, body) => {
      setSaved(body as Required<SettingsUpdate>);
      void qc.invalidateQueries({ queryKey: keys.me });
      toast({ title: 'Settings saved' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to save settings') }),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form);
  };

  const showNumber = form.smsEnabled || form.whatsappEnabled;
  const kb = form.knowledgeBase ?? '';

  return (
    <>
      <PageHeader title="Notification Settings" subtitle="Configure how you receive call summaries" />
      <ConfirmDestinations />
      <form onSubmit={onSubmit} className="grid gap-6">
        <Card>
          <CardHeader title="AI Voice Agent Mode" description="Choose how your calls are answered" />
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
        </Card>

        {form.aiMode === 'agent' && (
          <Card>
            <CardHeader title="Knowledge Base" description="What your AI agent knows about your business" />
            <div className="grid gap-2 p-5">
              <Field
                label="Knowledge Base"
                hint={
                  <>
                    Start each entry with "Q:" and the question, then "A:" and the answer on the next line. Separate entries with a blank line.
                  </>
                }
              >
                <Textarea rows={12} value={kb} onChange={(e) => set('knowledgeBase', e.target.value)} placeholder={knowledgeBasePlaceholder(user?.industry)} className="font-mono" />
              </Field>
              <p className="text-right text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
                {kb.length} characters
              </p>
            </div>
          </Card>
        )}

        <AgentTryIt aiMode={form.aiMode} knowledgeBase={form.knowledgeBase} businessName={form.businessName} voicePreference={form.voicePreference} />

        <CallMyLine />

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
          </div>
        </Card>

        <Card>
          <CardHeader title="Delivery Settings" description="Where call summaries are sent" />
          <div className="grid gap-5 p-5">
            <div className="flex items-center justify-between gap-4">
              <label htmlFor={waId} className="flex items-center gap-3">
                <MessageSquare className="h-5 w-5 text-emerald-600" aria-hidden />
                <span>
                  <span className="block text-sm font-semibold">WhatsApp Notifications</span>
                  <span className="block text-sm text-slate-500 dark:text-slate-400">Receive call summaries on WhatsApp</span>
                </span>
              </label>
              <Switch id={waId} label="WhatsApp Notifications" checked={form.whatsappEnabled} onChange={(v) => set('whatsappEnabled', v)} />
            </div>
            <div className="flex items-center justify-between gap-4">
              <label htmlFor={smsId} className="flex items-center gap-3">
                <MessageSquare className="h-5 w-5 text-sky-600" aria-hidden />
                <span>
                  <span className="block text-sm font-semibold">SMS Notifications</span>
                  <span className="block text-sm text-slate-500 dark:text-slate-400">Receive call summaries by text message</span>
                </span>
              </label>
              <Switch id={smsId} label="SMS Notifications" checked={form.smsEnabled} onChange={(v) => set('smsEnabled', v)} />
            </div>
            {showNumber && (
              <Field label="Notification Number" hint="Include country code (e.g., +44 for UK)">
                <Input type="tel" value={form.notificationNumber ?? ''} onChange={(e) => set('notificationNumber', e.target.value)} placeholder="+447700900123" autoComplete="tel" />
              </Field>
            )}
            {showNumber && (
              <Field label="Call-back Reminder" hint="A text about a missed call or voicemail you have not marked as called back.">
                <Select
                  value={form.callbackReminderHours === null ? '' : String(form.callbackReminderHours)}
                  onChange={(e) => set('callbackReminderHours', e.target.value ? Number(e.target.value) : null)}
                >
                  <option value="">Off</option>
                  {reminderChoices(form.callbackReminderHours).map((h) => (
                    <option key={h} value={h}>
                      After {h} {h === 1 ? 'hour' : 'hours'}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            <div className="flex items-center justify-between gap-4">
              <label htmlFor={emailId} className="flex items-center gap-3">
                <Mail className="h-5 w-5 text-violet-600" aria-hidden />
                <span>
                  <span className="block text-sm font-semibold">E-mail summaries</span>
                  <span className="block text-sm text-slate-500 dark:text-slate-400">Receive each call's summary and transcript by e-mail</span>
                </span>
              </label>
              <Switch id={emailId} label="E-mail summaries" checked={form.emailSummariesEnabled} onChange={(v) => set('emailSummariesEnabled', v)} />
            </div>
            {form.emailSummariesEnabled && (
              <Field label="Summary e-mail address" hint="Leave empty to use your account e-mail.">
                {/* Text with an e-mail keyboard: the server's message explains a bad address, not the browser's bubble. */}
                <Input
                  type="text"
                  inputMode="email"
                  value={form.summaryEmail ?? ''}
                  onChange={(e) => set('summaryEmail', e.target.value)}
                  placeholder={user?.email ?? 'owner@example.co.uk'}
                  autoComplete="email"
                />
              </Field>
            )}
            <div className="flex items-center justify-between gap-4">
              <label htmlFor={digestId} className="flex items-center gap-3">
                <CalendarClock className="h-5 w-5 text-violet-600" aria-hidden />
                <span>
                  <span className="block text-sm font-semibold">Weekly call-back digest</span>
                  <span className="block text-sm text-slate-500 dark:text-slate-400">A Monday e-mail of last week's callers you have not called back</span>
                </span>
              </label>
              <Switch id={digestId} label="Weekly call-back digest" checked={form.weeklyDigestEnabled} onChange={(v) => set('weeklyDigestEnabled', v)} />
            </div>
          </div>
        </Card>

        <div className="flex justify-end">
          <Button type="submit" size="lg" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </form>
      <div className="mt-6 grid gap-6">
        <CallHandling />
        {/* Saved on its own: not part of "Save Changes". */}
        <WebhookSettings />
      </div>
    </>
  );
}
