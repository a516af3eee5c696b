// Missed-call text-back: on/off, the wording with its live SMS count, the window and the hours.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TextBackSettingsShape } from '../../../../contract/schemas/caller-texts';
import { getTextBack, saveTextBack } from '../../api/caller-texts';
import { keys } from '../../api/keys';
import { Button, Card, CardHeader, ErrorState, Field, Input, Select, Skeleton, Switch, Textarea } from '../../components/ui';
import { useFollowing } from '../../components/use-following';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { SmsCount } from './SmsCount';

export function TextBackCard() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: keys.callerTexts.textBack, queryFn: getTextBack });
  const [form, setForm] = useFollowing<TextBackSettingsShape | null>(query.data?.settings ?? null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: saveTextBack,
    onSuccess: (data) => {
      qc.setQueryData(keys.callerTexts.textBack, data);
      setError(null);
      toast({ title: 'Text-back saved' });
    },
    onError: (e) => {
      const message = messageOr(e, 'Failed to save the text-back');
      setError(message);
      toast({ variant: 'destructive', title: 'Error', description: message });
    },
  });
  const wording = form?.wording ?? query.data?.defaultWording ?? '';
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!form) return;
    // The default wording unchanged stays "default", so it follows a new business name.
    save.mutate({ ...form, wording: wording.trim() === query.data?.defaultWording ? null : wording });
  };

  return (
    <Card aria-labelledby="text-back-title">
      <CardHeader
        title={<span id="text-back-title">Missed-call text-back</span>}
        description="One text to a caller who rang and left no message: UK mobiles only, never withheld or blocked callers, never to anyone who replied STOP"
      />
      {query.isPending ? (
        <div className="p-5"><Skeleton className="h-32 w-full" /></div>
      ) : query.isError || !form ? (
        <ErrorState title="Unable to load the text-back" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />
      ) : (
        <form className="grid grid-cols-1 gap-5 p-5" onSubmit={onSubmit}>
          <div className="flex items-center justify-between gap-4">
            <span id="text-back-switch" className="text-sm font-medium">Text back callers who leave no message</span>
            <Switch label="Text back callers who leave no message" checked={form.enabled} onChange={(enabled) => setForm({ ...form, enabled })} />
          </div>
          <Field label="Text-back wording" hint={<SmsCount text={wording} />} error={error}>
            <Textarea rows={4} maxLength={480} value={wording} onChange={(e) => setForm({ ...form, wording: e.target.value })} />
          </Field>
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <Field label="Hours before texting the same caller again">
              <Input type="number" min={1} max={720} value={form.windowHours} onChange={(e) => setForm({ ...form, windowHours: Number(e.target.value) })} />
            </Field>
            <Field label="When to text back">
              <Select value={form.hours} onChange={(e) => setForm({ ...form, hours: e.target.value as TextBackSettingsShape['hours'] })}>
                <option value="always">Always</option>
                <option value="open">Only for calls in opening hours</option>
                <option value="closed">Only for calls outside opening hours</option>
              </Select>
            </Field>
          </div>
          <div>
            <Button type="submit" disabled={save.isPending}>Save Text-back</Button>
          </div>
        </form>
      )}
    </Card>
  );
}
