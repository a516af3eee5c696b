import { CalendarClock, Mail, MessageSquare } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PendingDestination } from '../../../../contract/schemas/destinations';
import { formatPhone } from '../../../../contract/phone-display';
import { destinationsKey, getPendingDestinations } from '../../api/destinations';
import { SwitchRow } from '../../components/SwitchRow';
import { Card, CardHeader, Field, Input, Select } from '../../components/ui';
import { ConfirmOne } from './ConfirmDestinations';
import { SectionForm } from './SectionForm';
import { useSettingsForm } from './use-settings-form';
import { textsLandline } from '../../lib/first-run';

/** The reminder choices; a value set another way (the API takes 1 to 168) is offered too. */
const REMINDER_HOURS = [1, 2, 4, 8, 24, 48];
const reminderChoices = (current: number | null) =>
  current === null || REMINDER_HOURS.includes(current) ? REMINDER_HOURS : [...REMINDER_HOURS, current].sort((a, b) => a - b);

/** No notification number in use: a new owner's sign-up phone before its code comes back. */
const NONE_YET = 'none yet';

/**
 * Under a destination's field: what is in use now and, while a new one waits for its code, where
 * the code went and the box to type it in. The owner is taken there when a save sends a code.
 */
function DestinationStatus({ inUse, fallback, pending, focus, onConfirmed }: { inUse: string; fallback?: boolean; pending: PendingDestination | undefined; focus: boolean; onConfirmed: (destination: string) => void }) {
  return (
    <div className="grid gap-3 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60" data-testid="destination-status">
      <p>
        <span className="font-medium">In use:</span> {inUse}
        {fallback && ' (your account e-mail)'}
      </p>
      {pending && (
        <>
          <p className="font-medium text-amber-800 dark:text-amber-200">
            Waiting for the code we sent to {pending.kind === 'sms' ? formatPhone(pending.destination) : pending.destination}:{' '}
            {inUse === NONE_YET ? 'nothing is texted to you' : `${pending.kind === 'sms' ? 'notifications' : 'summaries'} go to ${inUse}`} until you enter it.
          </p>
          <ConfirmOne pending={pending} focusOnShow={focus} onConfirmed={onConfirmed} />
        </>
      )}
    </div>
  );
}

/** Where call summaries go: WhatsApp, SMS, the call-back reminder, e-mail and the weekly digest. */
export default function DeliverySection() {
  // Set when a save of this section sends a code: the owner is taken to that code's box.
  const [justSent, setJustSent] = useState<PendingDestination['kind'] | null>(null);
  const { user, form, set, adopt, save, saving } = useSettingsForm(
    ['whatsappEnabled', 'smsEnabled', 'notificationNumber', 'callbackReminderHours', 'emailSummariesEnabled', 'summaryEmail', 'weeklyDigestEnabled'] as const,
    (sent) => {
      if (sent.notificationNumber) setJustSent('sms');
      else if (sent.summaryEmail) setJustSent('email');
    },
  );
  const showNumber = form.smsEnabled || form.whatsappEnabled;
  const pending = useQuery({ queryKey: destinationsKey, queryFn: getPendingDestinations }).data?.pending ?? [];
  const pendingSms = pending.find((p) => p.kind === 'sms');
  const pendingEmail = pending.find((p) => p.kind === 'email');
  const landline = user ? textsLandline(user, Boolean(pendingSms)) : null;
  const confirmed = (kind: PendingDestination['kind']) => (destination: string) => {
    setJustSent(null);
    // The field shows what is now in use (and a later save does not send it again).
    adopt(kind === 'sms' ? 'notificationNumber' : 'summaryEmail', destination);
  };
  return (
    <SectionForm label="Delivery" onSave={save} saving={saving}>
      <Card>
        <CardHeader title="Delivery Settings" description="Where call summaries are sent" />
        <div className="grid gap-5 p-5">
          <SwitchRow
            icon={<MessageSquare className="h-5 w-5 text-emerald-600" aria-hidden />}
            label="WhatsApp Notifications"
            text="Receive call summaries on WhatsApp"
            checked={form.whatsappEnabled}
            onChange={(v) => set('whatsappEnabled', v)}
          />
          <SwitchRow
            icon={<MessageSquare className="h-5 w-5 text-sky-600" aria-hidden />}
            label="SMS Notifications"
            text="Receive call summaries by text message"
            checked={form.smsEnabled}
            onChange={(v) => set('smsEnabled', v)}
          />
          {showNumber && landline && (
            <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100" data-testid="landline-notice">
              {formatPhone(landline)}, the number you signed up with, is a landline, and landlines cannot receive texts. Enter the mobile you want call texts on below.
            </p>
          )}
          {showNumber && (
            <Field label="Notification Number" hint="Include country code (e.g., +44 for UK)">
              <Input type="tel" value={form.notificationNumber ?? ''} onChange={(e) => set('notificationNumber', e.target.value)} placeholder="+447700900123" autoComplete="tel" />
            </Field>
          )}
          {showNumber && (user?.notificationNumber || pendingSms) && (
            <DestinationStatus inUse={user?.notificationNumber ? formatPhone(user.notificationNumber) : NONE_YET} pending={pendingSms} focus={justSent === 'sms'} onConfirmed={confirmed('sms')} />
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
          <SwitchRow
            icon={<Mail className="h-5 w-5 text-violet-600" aria-hidden />}
            label="E-mail summaries"
            text="Receive each call's summary and transcript by e-mail"
            checked={form.emailSummariesEnabled}
            onChange={(v) => set('emailSummariesEnabled', v)}
          />
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
          {form.emailSummariesEnabled && (
            <DestinationStatus inUse={user?.summaryEmail ?? user?.email ?? ''} fallback={!user?.summaryEmail} pending={pendingEmail} focus={justSent === 'email'} onConfirmed={confirmed('email')} />
          )}
          <SwitchRow
            icon={<CalendarClock className="h-5 w-5 text-violet-600" aria-hidden />}
            label="Weekly call-back digest"
            text="A Monday e-mail of last week's callers you have not called back"
            checked={form.weeklyDigestEnabled}
            onChange={(v) => set('weeklyDigestEnabled', v)}
          />
        </div>
      </Card>
    </SectionForm>
  );
}
