import { Ban, PhoneForwarded, Plus, Star, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  type CallHandlingListName,
  type CallHandlingSettings,
  type CallHandlingUpdate,
  type HolidayNation,
  type WithheldPolicy,
} from '../../../../contract/call-handling';
import { formatPhone } from '../../../../contract/phone-display';
import { useCallHandling, useListEntry, useSaveCallHandling, useTestTransfer } from '../../api/call-handling';
import { useMeta } from '../../api/session';
import { Button, Card, ErrorState, Field, Input, Select, Spinner, Textarea } from '../../components/ui';
import { HoursTable } from '../../components/HoursTable';
import { SwitchRow } from '../../components/SwitchRow';
import { PHONE_ONLY, useMediaQuery } from '../../components/use-media-query';
import { useUnsavedChangesWarning } from '../../components/use-unsaved-changes';
import { CLOSED_MODE_LABELS, NATION_LABELS, TRANSFER_EXAMPLE, WITHHELD_LABELS, changedFields, handlingSummaries } from '../../lib/call-handling';
import { messageOr } from '../../lib/errors';
import { SettingsSection } from './SettingsSection';
import { CallBacksSetting, callBacksSummary } from './CallBacksSetting';

/** What the form edits; the two lists change one number at a time, straight away, so they are not in it. */
type Form = Required<Omit<CallHandlingUpdate, 'blockList' | 'vipList' | 'transferNumber' | 'closedGreeting'>> & {
  transferNumber: string;
  closedGreeting: string;
};

function formFrom(s: CallHandlingSettings): Form {
  return {
    transferNumber: s.transferNumber ?? '',
    transferTimeoutSeconds: s.transferTimeoutSeconds,
    hoursEnabled: s.hoursEnabled,
    hours: s.hours,
    holidayNations: s.holidayNations,
    openRingFirst: s.openRingFirst,
    closedMode: s.closedMode,
    closedRingFirst: s.closedRingFirst,
    closedGreeting: s.closedGreeting ?? '',
    withheld: s.withheld,
    callBacksBy: s.callBacksBy,
    callBackAfterMinutes: s.callBackAfterMinutes,
  };
}

type SectionId = 'transfer' | 'hours' | 'answering' | 'callBacks' | 'lists';

/** The section each field is in: a save refused for a field opens its section on a phone. */
const SECTION_OF: Record<keyof Form, SectionId> = {
  transferNumber: 'transfer',
  transferTimeoutSeconds: 'transfer',
  hoursEnabled: 'hours',
  hours: 'hours',
  holidayNations: 'hours',
  openRingFirst: 'answering',
  closedMode: 'answering',
  closedRingFirst: 'answering',
  closedGreeting: 'answering',
  withheld: 'answering',
  callBacksBy: 'callBacks',
  callBackAfterMinutes: 'callBacks',
};

/** The sections holding the fields in error ("hours.mon" is in hours). */
function sectionsWithErrors(errors: Record<string, string>): SectionId[] {
  return Object.keys(errors).flatMap((f) => {
    const field = f.split('.')[0] as keyof Form;
    return Object.hasOwn(SECTION_OF, field) ? [SECTION_OF[field]] : [];
  });
}

/** Putting calls through needs an outbound line the operator sets up (GET /api/meta says whether there is one). */
const NO_TRANSFERS = 'Putting calls through to your phone is not set up yet, so ring me first, VIP ring-through and Test transfer are unavailable.';

function NumberList({ list, title, text, numbers, icon }: { list: CallHandlingListName; title: string; text: string; numbers: string[]; icon: React.ReactNode }) {
  // "block list", "VIP list": the list's name inside a sentence.
  const name = list === 'vip' ? 'VIP list' : 'block list';
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useListEntry();
  const add = (e: FormEvent) => {
    e.preventDefault();
    if (!entry.trim()) return;
    setError(null);
    change.mutate(
      { list, number: entry.trim() },
      { onSuccess: () => setEntry(''), onError: (err) => setError(messageOr(err, 'Failed to update the list')) },
    );
  };
  return (
    <section className="grid gap-3" aria-label={title}>
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        {icon} {title}
      </h3>
      <p className="text-sm text-slate-500 dark:text-slate-400">{text}</p>
      <form onSubmit={add} className="flex items-start gap-2">
        <div className="flex-1">
          <Field label={`Add to ${name}`} error={error}>
            <Input type="tel" value={entry} onChange={(e) => setEntry(e.target.value)} placeholder="07700 900123" autoComplete="off" />
          </Field>
        </div>
        <Button type="submit" variant="outline" className="mt-6" disabled={change.isPending || !entry.trim()}>
          <Plus className="h-4 w-4" aria-hidden /> Add
        </Button>
      </form>
      {numbers.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No numbers yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800" aria-label={`${title} numbers`}>
          {numbers.map((n) => (
            <li key={n} className="flex items-center justify-between gap-3 px-3 py-1.5 text-sm">
              <span className="tabular-nums">{formatPhone(n)}</span>
              <Button size="sm" variant="ghost" aria-label={`Remove ${formatPhone(n)} from ${name}`} disabled={change.isPending} onClick={() => change.mutate({ list, number: n, remove: true })}>
                <Trash2 className="h-3.5 w-3.5" aria-hidden /> Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CallHandlingForm({ settings }: { settings: CallHandlingSettings }) {
  const [form, setForm] = useState(() => formFrom(settings));
  const [saved, setSaved] = useState(form);
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  useUnsavedChangesWarning(dirty);
  // The fields the server refused on the last save (field → message): marked, and the first scrolled to.
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.scrollIntoView({ block: 'center' });
    first?.focus({ preventScroll: true });
  }, [errors]);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    if (Object.keys(errors).some((f) => f === k || f.startsWith(`${k}.`))) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([f]) => f !== k && !f.startsWith(`${k}.`))));
  };
  // On a phone every section starts closed, showing its summary; on a wider screen they are plain cards.
  const phone = useMediaQuery(PHONE_ONLY);
  const [open, setOpen] = useState<Partial<Record<SectionId, boolean>>>({});
  const section = (id: SectionId) => ({ phone, open: Boolean(open[id]), onToggle: () => setOpen((o) => ({ ...o, [id]: !o[id] })) });
  const save = useSaveCallHandling(
    (res) => {
      const next = formFrom(res.callHandling);
      setForm(next);
      setSaved(next);
      setErrors({});
    },
    (refused) => {
      // Opened in the same render as the marks, so the effect above can scroll to the first one.
      setOpen((o) => ({ ...o, ...Object.fromEntries(sectionsWithErrors(refused).map((id) => [id, true])) }));
      setErrors(refused);
    },
  );
  const transfers = useMeta().data?.transfersAvailable ?? true;
  const summary = handlingSummaries({ ...form, blockList: settings.blockList, vipList: settings.vipList }, transfers);
  const test = useTestTransfer();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // Only what the owner touched: a stored number the rules now refuse does not block saving hours.
    const changed = changedFields(form, saved);
    save.mutate({
      ...changed,
      ...('transferNumber' in changed ? { transferNumber: form.transferNumber.trim() || null } : {}),
      ...('closedGreeting' in changed ? { closedGreeting: form.closedGreeting.trim() || null } : {}),
    });
  };
  const toggleNation = (n: HolidayNation, on: boolean) =>
    set('holidayNations', on ? [...form.holidayNations, n] : form.holidayNations.filter((x) => x !== n));
  const hasTransfer = Boolean(settings.transferNumber);

  return (
    <>
      <form ref={formRef} onSubmit={onSubmit} className="grid gap-6" aria-label="Call handling" noValidate>
        <SettingsSection title="Call handling" description="Put callers through to you, answer by the clock, and choose who gets through" summary={summary.transfer} {...section('transfer')}>
          <div className="grid gap-5 p-5">
            {!transfers && (
              <p role="note" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                {NO_TRANSFERS}
              </p>
            )}
            <div className="grid gap-4 md:grid-cols-[1fr_12rem]">
              <Field label="Put calls through to" hint="Your mobile. Not the business line that forwards to us." error={errors.transferNumber}>
                <Input type="tel" value={form.transferNumber} onChange={(e) => set('transferNumber', e.target.value)} placeholder={transfers ? TRANSFER_EXAMPLE : undefined} autoComplete="tel" />
              </Field>
              <Field label="Ring for (seconds)" hint="5 to 60; then the caller goes to voicemail." error={errors.transferTimeoutSeconds}>
                <Input type="number" min={5} max={60} value={form.transferTimeoutSeconds} onChange={(e) => set('transferTimeoutSeconds', Number(e.target.value))} />
              </Field>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="outline" disabled={!transfers || !hasTransfer || dirty || test.isPending} onClick={() => test.mutate()}>
                <PhoneForwarded className="h-4 w-4" aria-hidden /> {test.isPending ? 'Ringing...' : 'Test transfer'}
              </Button>
              <span className="text-sm text-slate-500 dark:text-slate-400">
                {!transfers
                  ? 'Not available yet.'
                  : hasTransfer
                    ? dirty
                      ? 'Save your changes first.'
                      : 'Rings your phone and plays a sample briefing.'
                    : 'Save a number to put calls through to first.'}
              </span>
            </div>
          </div>
        </SettingsSection>

        <SettingsSection title="Business hours" description="UK time. Bank holidays are closed all day." summary={summary.hours} {...section('hours')}>
          <div className="grid gap-5 p-5">
            <SwitchRow
              label="Use business hours"
              text="When off, every call is handled as open hours."
              checked={form.hoursEnabled}
              onChange={(v) => set('hoursEnabled', v)}
            />
            <HoursTable hours={form.hours} onChange={(h) => set('hours', h)} errors={errors} />
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-300">Bank holidays of</legend>
              <div className="flex flex-wrap gap-4">
                {(Object.keys(NATION_LABELS) as HolidayNation[]).map((n) => (
                  <label key={n} className="flex min-h-6 items-center gap-2 text-sm">
                    <input type="checkbox" className="h-4 w-4 accent-indigo-600" checked={form.holidayNations.includes(n)} onChange={(e) => toggleNation(n, e.target.checked)} />
                    {NATION_LABELS[n]}
                  </label>
                ))}
              </div>
            </fieldset>
          </div>
        </SettingsSection>

        <SettingsSection title="How calls are answered" description="In open hours calls are answered in your AI Voice Agent Mode." summary={summary.answering} {...section('answering')}>
          <div className="grid gap-5 p-5">
            <SwitchRow
              label="Open hours: ring me first"
              text="Your phone rings first; if you do not answer, the call goes on as usual."
              checked={form.openRingFirst}
              onChange={(v) => set('openRingFirst', v)}
              disabled={!transfers}
            />
            <Field label="Closed hours: answer with">
              <Select value={form.closedMode} onChange={(e) => set('closedMode', e.target.value as Form['closedMode'])}>
                {(Object.keys(CLOSED_MODE_LABELS) as Form['closedMode'][]).map((m) => (
                  <option key={m} value={m}>
                    {CLOSED_MODE_LABELS[m]}
                  </option>
                ))}
              </Select>
            </Field>
            <SwitchRow
              label="Closed hours: ring me first"
              text="Your phone rings first out of hours too."
              checked={form.closedRingFirst}
              onChange={(v) => set('closedRingFirst', v)}
              disabled={!transfers}
            />
            <Field label="Closed-hours greeting (Optional)" hint="Played instead of your usual greeting when you are closed." error={errors.closedGreeting}>
              <Textarea rows={3} value={form.closedGreeting} onChange={(e) => set('closedGreeting', e.target.value)} />
            </Field>
            <Field label="Withheld numbers">
              <Select value={form.withheld} onChange={(e) => set('withheld', e.target.value as WithheldPolicy)}>
                {(Object.keys(WITHHELD_LABELS) as WithheldPolicy[]).map((w) => (
                  <option key={w} value={w}>
                    {WITHHELD_LABELS[w]}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
        </SettingsSection>

        <SettingsSection title="Ringing callers back" description="When a caller asks to be rung back" summary={callBacksSummary(form.callBacksBy, form.callBackAfterMinutes)} {...section('callBacks')}>
          <div className="grid gap-5 p-5">
            <CallBacksSetting by={form.callBacksBy} minutes={form.callBackAfterMinutes} errors={errors} onBy={(v) => set('callBacksBy', v)} onMinutes={(v) => set('callBackAfterMinutes', v)} />
          </div>
        </SettingsSection>

        <div className="flex justify-end">
          <Button type="submit" size="lg" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save call handling'}
          </Button>
        </div>
      </form>

      <SettingsSection title="Block and VIP lists" description="Changes here apply at once." summary={summary.lists} {...section('lists')}>
        <div className="grid gap-8 p-5 md:grid-cols-2">
          <NumberList
            list="block"
            title="Block list"
            text="These callers hear a short polite message and are not recorded."
            numbers={settings.blockList}
            icon={<Ban className="h-4 w-4 text-slate-500" aria-hidden />}
          />
          <NumberList
            list="vip"
            title="VIP list"
            text={transfers ? 'Your phone always rings first for these callers, and you are texted at once.' : 'You are texted at once when these callers ring.'}
            numbers={settings.vipList}
            icon={<Star className="h-4 w-4 text-violet-600" aria-hidden />}
          />
        </div>
      </SettingsSection>
    </>
  );
}

/** The "Call handling" section of Notification Settings (issue 16), with its own save. */
export default function CallHandling() {
  const q = useCallHandling();
  if (q.isLoading) return <Spinner label="Loading call handling..." />;
  if (q.isError || !q.data)
    return (
      <Card>
        <ErrorState title="Could not load call handling" message={messageOr(q.error, 'Please try again.')} onRetry={() => void q.refetch()} />
      </Card>
    );
  return <CallHandlingForm settings={q.data.callHandling} />;
}
