// The admin's threshold for the box-wide nuisance list (issues 43, 53): how many active businesses
// must mark a number SPAM before it is screened for everyone (nuisance calls alone never list one).
// The rule (whole numbers 2 to 100) lives on the server alone; its 400 is shown here as sent.
import { useState, type FormEvent } from 'react';
import type { ApiBoxThresholds } from '../../../../contract/schemas/screening';
import { useSaveThresholds } from '../../api/screening';
import { Button, Card, CardHeader, Field, Input } from '../../components/ui';
import { useFollowing } from '../../components/use-following';
import { useUnsavedChangesWarning } from '../../components/use-unsaved-changes';
import { messageOr } from '../../lib/errors';

type Draft = Record<keyof ApiBoxThresholds, string>;

const draftOf = (t: ApiBoxThresholds): Draft => ({ spamMarks: String(t.spamMarks) });
const sameDraft = (a: Draft, b: Draft) => a.spamMarks === b.spamMarks;

/** A typed whole number goes as a number; anything else goes as typed, for the server to refuse in its own words. */
const asSent = (v: string): number | string => (/^\s*\d+\s*$/.test(v) ? Number(v) : v);

export function ThresholdsForm({ stored }: { stored: ApiBoxThresholds }) {
  // A save (here or in another tab, after a refresh) brings new stored values.
  const [draft, setDraft] = useFollowing(draftOf(stored), sameDraft);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveThresholds();
  useUnsavedChangesWarning(draft.spamMarks !== String(stored.spamMarks));
  const set = (k: keyof Draft, v: string) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setError(null);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    save.mutate({ spamMarks: asSent(draft.spamMarks) } as ApiBoxThresholds, {
      onError: (err) => setError(messageOr(err, 'Failed to save the thresholds')),
    });
  };
  return (
    <Card className="mb-6">
      <CardHeader title="Thresholds" description="A number is screened for every business once this many active businesses mark it as spam, unless a business has it on its allow list." />
      <form onSubmit={onSubmit} noValidate aria-label="Thresholds" className="grid gap-4 p-5">
        <div className="grid gap-4 md:grid-cols-2">
          <Field label="Businesses marking it spam">
            <Input type="number" inputMode="numeric" min={2} max={100} step={1} value={draft.spamMarks} onChange={(e) => set('spamMarks', e.target.value)} />
          </Field>
        </div>
        {error && (
          <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Thresholds'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
