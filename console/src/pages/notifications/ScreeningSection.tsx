// The owner's own screening (issue 43): what a screened caller gets, and the two lists their
// SPAM / NOT SPAM marks built (Call Details, or a reply to a summary text). Marks are added from
// a call, never typed here: a mark needs a caller the owner has actually heard from.
import { PhoneOff, ShieldCheck, ShieldX, Trash2, Volume2 } from 'lucide-react';
import { useState } from 'react';
import type { ApiScreening } from '../../../../contract/schemas/screening';
import { useOwnerScreening, useRemoveMark, useSaveScreenAction } from '../../api/screening';
import { Button, Card, CardHeader, ErrorState, Spinner } from '../../components/ui';
import { useUnsavedChangesWarning } from '../../components/use-unsaved-changes';
import { messageOr } from '../../lib/errors';
import { formatPhone } from '../../lib/format';
import { RadioCard } from './RadioCard';
import { SectionForm } from './SectionForm';

type ScreenAction = ApiScreening['action'];

const ACTIONS: { value: ScreenAction; title: string; text: string; icon: React.ReactNode }[] = [
  { value: 'reject', title: 'Reject before answering', text: 'The call is never answered: the caller\'s network hears it refused.', icon: <PhoneOff className="h-5 w-5" aria-hidden /> },
  { value: 'message', title: 'Play a short message', text: 'Answered with "Sorry, we can\'t take your call. Goodbye.", then hung up.', icon: <Volume2 className="h-5 w-5" aria-hidden /> },
];

function MarkList({ title, text, numbers, empty, icon }: { title: string; text: string; numbers: string[]; empty: string; icon: React.ReactNode }) {
  const remove = useRemoveMark();
  return (
    <section className="grid gap-3" aria-label={title}>
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        {icon} {title}
      </h3>
      <p className="text-sm text-slate-500 dark:text-slate-400">{text}</p>
      {numbers.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800" aria-label={`${title} numbers`}>
          {numbers.map((n) => (
            <li key={n} className="flex items-center justify-between gap-3 px-3 py-1.5 text-sm">
              <span className="tabular-nums">{formatPhone(n)}</span>
              <Button size="sm" variant="ghost" aria-label={`Remove ${formatPhone(n)} from ${title.toLowerCase()}`} disabled={remove.isPending} onClick={() => remove.mutate(n)}>
                <Trash2 className="h-3.5 w-3.5" aria-hidden /> Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function ScreeningSection() {
  const q = useOwnerScreening();
  const save = useSaveScreenAction();
  const stored = q.data?.action;
  // The owner's pick, until saved; untouched, the stored choice shows (it arrives after the first render).
  const [picked, setPicked] = useState<ScreenAction | undefined>();
  const action = picked ?? stored;
  useUnsavedChangesWarning(picked !== undefined && picked !== stored);

  if (q.isLoading) return <Spinner label="Loading screening..." />;
  if (q.isError || !q.data || !action) return <ErrorState title="Could not load screening" message={messageOr(q.error, 'Please try again.')} onRetry={() => void q.refetch()} />;
  return (
    <div className="grid gap-6">
      <SectionForm label="Screening" onSave={() => save.mutate(action, { onSuccess: () => setPicked(undefined) })} saving={save.isPending}>
        <Card>
          <CardHeader title="Screened Callers" description="What a caller on your spam list, or on the box-wide nuisance list, gets. Their call stays in Call Logs; you are never texted about it." />
          <fieldset className="grid gap-3 p-5 md:grid-cols-2">
            <legend className="sr-only">What screened callers get</legend>
            {ACTIONS.map((a) => (
              <RadioCard<ScreenAction> key={a.value} name="screenAction" value={a.value} current={action} onChange={setPicked} title={a.title} text={a.text} icon={a.icon} />
            ))}
          </fieldset>
        </Card>
      </SectionForm>
      <Card>
        <CardHeader title="Your Lists" description="Built from Mark as spam and Not spam in Call Details, or SPAM / NOT SPAM replies to a summary text." />
        <div className="grid gap-6 p-5 md:grid-cols-2">
          <MarkList
            title="Spam list"
            text="Screened before they reach you. Remove a number to take their calls again."
            numbers={q.data.spam}
            empty="No numbers marked as spam."
            icon={<ShieldX className="h-4 w-4 text-red-600 dark:text-red-400" aria-hidden />}
          />
          <MarkList
            title="Allow list"
            text="Always reach you, even when other businesses on this box report them."
            numbers={q.data.allow}
            empty="No numbers marked as not spam."
            icon={<ShieldCheck className="h-4 w-4 text-emerald-600 dark:text-emerald-400" aria-hidden />}
          />
        </div>
      </Card>
    </div>
  );
}
