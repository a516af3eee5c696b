// One section of the owner's settings (PATCH /api/user/settings): its own fields, its own
// "Save Changes", its own unsaved-changes guard. A save sends only the section's fields, so
// what another section holds is never overwritten by it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { ApiUser, SettingsUpdate } from '../../../../contract/api';
import { keys } from '../../api/keys';
import { saveSettings } from '../../api/settings';
import { useSession } from '../../api/session';
import { useUnsavedChangesWarning } from '../../components/use-unsaved-changes';
import { changedFields } from '../../lib/call-handling';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';

export type SettingsForm = Required<SettingsUpdate>;

function formFrom(user: ApiUser | null): SettingsForm {
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
    agentLanguages: user?.agentLanguages ?? ['en'],
    // Saved by the line-type picker on Phone Numbers (lib/line-type.ts), in no settings section.
    lineType: user?.lineType ?? null,
    greetingLanguages: user?.greetingLanguages ?? ['en'],
    languageVoices: user?.languageVoices ?? {},
  };
}

/** `onSent` hears what a successful save sent (only the fields changed). */
export function useSettingsForm<K extends keyof SettingsForm>(fields: readonly K[], onSent?: (sent: Partial<Pick<SettingsForm, K>>) => void) {
  const { user } = useSession();
  const qc = useQueryClient();
  const pick = (all: SettingsForm) => Object.fromEntries(fields.map((k) => [k, all[k]])) as Pick<SettingsForm, K>;
  const [form, setForm] = useState(() => pick(formFrom(user)));
  // What the server holds: the section as loaded, then as last saved.
  const [saved, setSaved] = useState(form);
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  useUnsavedChangesWarning(dirty);
  const set = <F extends K>(k: F, v: SettingsForm[F]) => setForm((f) => ({ ...f, [k]: v }));
  /** Takes what the server now holds for `k` as both the field's value and the saved one (a destination just confirmed). */
  const adopt = useCallback(<F extends K>(k: F, v: SettingsForm[F]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setSaved((f) => ({ ...f, [k]: v }));
  }, []);
  const save = useMutation({
    mutationFn: (body: Pick<SettingsForm, K>) => saveSettings(body),
    onSuccess: (data, body) => {
      setSaved((was) => ({ ...was, ...body }));
      void qc.invalidateQueries({ queryKey: keys.me });
      // The server's own words when a code was sent ("Settings saved. Enter the code we sent to …").
      const rest = data.message?.replace(/^Settings saved\.?\s*/, '');
      toast({ title: 'Settings saved', description: rest || undefined });
      onSent?.(body);
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to save settings') }),
  });
  // Only what the owner changed: a stored value the rules now refuse blocks only a save that touches it.
  return { user, form, saved, set, adopt, dirty, save: () => save.mutate(changedFields(form, saved) as Pick<SettingsForm, K>), saving: save.isPending };
}
