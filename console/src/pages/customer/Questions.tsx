import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BookPlus, Check, HelpCircle, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ApiUnansweredQuestion } from '../../../../contract/api';
import { keys } from '../../api/keys';
import { useQuestions } from '../../api/queries';
import { useSession } from '../../api/session';
import { addQuestionToKb, deleteQuestion, resolveQuestion } from '../../api/questions';
import { Dialog } from '../../components/Dialog';
import { AdminTable, type Column } from '../../components/AdminTable';
import { QueryState } from '../../components/QueryState';
import { Badge, Button, Card, EmptyState, Field, Input, PageHeader } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { NA, formatDateTime, formatPhone } from '../../lib/format';
import { canAddToKb, canResolve, filterQuestions, kbAnswer, questionBadge, questionCounts, type QuestionFilter } from '../../lib/questions';
import { toast } from '../../toast/use-toast';

/** Deleting cannot be undone, so it is asked first (like an admin deleting a user). */
const deleteQuestionConfirmation = (question: string) =>
  `Delete the question "${question.length > 80 ? `${question.slice(0, 80)}…` : question}"? This cannot be undone.`;

const BADGE_TONE = { 'In KB': 'purple', Resolved: 'green', Pending: 'amber' } as const;

function AddToKbDialog({ question, onClose }: { question: ApiUnansweredQuestion | null; onClose: () => void }) {
  const qc = useQueryClient();
  const [answer, setAnswer] = useState('');
  const add = useMutation({
    mutationFn: (a: string) => addQuestionToKb(question!.id, a),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: keys.questions });
      // The answer went into the user's knowledge base, which lives on the user.
      void qc.invalidateQueries({ queryKey: keys.me });
      toast({ title: 'Added to knowledge base' });
      setAnswer('');
      onClose();
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to add to knowledge base') }),
  });
  const trimmed = kbAnswer(answer);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (trimmed) add.mutate(trimmed);
  };
  const close = () => {
    setAnswer('');
    onClose();
  };
  return (
    <Dialog open={question !== null} onClose={close} title="Add to Knowledge Base" description="Your answer is added to the knowledge base your AI agent uses.">
      {question && (
        <form onSubmit={onSubmit} className="grid gap-4">
          <div className="rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
            <p className="font-medium">{question.question}</p>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {formatPhone(question.callerNumber)} · {formatDateTime(question.createdAt)}
            </p>
          </div>
          <Field label="Your Answer">
            <Input value={answer} onChange={(e) => setAnswer(e.target.value)} />
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!trimmed || add.isPending}>
              {add.isPending ? 'Adding...' : 'Add to Knowledge Base'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

export default function Questions() {
  const q = useQuestions();
  // A staff sign-in (issue 58) may list and resolve; the knowledge base and deleting are the owner's.
  const owner = useSession().staff === null;
  const qc = useQueryClient();
  const [filter, setFilter] = useState<QuestionFilter>('all');
  const [adding, setAdding] = useState<ApiUnansweredQuestion | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.questions });

  const resolve = useMutation({
    mutationFn: resolveQuestion,
    onSuccess: () => {
      refresh();
      toast({ title: 'Question resolved' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to resolve question') }),
  });
  const remove = useMutation({
    mutationFn: deleteQuestion,
    onSuccess: () => {
      refresh();
      toast({ title: 'Question deleted' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to delete question') }),
  });

  const all = q.data?.questions ?? [];
  const counts = questionCounts(all);
  const shown = filterQuestions(all, filter);
  const filters: { value: QuestionFilter; label: string }[] = [
    { value: 'all', label: `All (${counts.all})` },
    { value: 'pending', label: `Pending (${counts.pending})` },
    { value: 'resolved', label: `Resolved (${counts.resolved})` },
  ];

  const columns: Column<ApiUnansweredQuestion>[] = [
    { label: 'Question', cell: 'break-words font-medium', value: (item) => item.question },
    { label: 'Caller', head: 'w-36', cell: 'whitespace-nowrap tabular-nums', value: (item) => formatPhone(item.callerNumber) },
    { label: 'AI Response', cell: 'break-words text-slate-600 dark:text-slate-400', value: (item) => item.aiResponse || NA },
    { label: 'Date', head: 'w-36', cell: 'whitespace-nowrap tabular-nums', value: (item) => formatDateTime(item.createdAt) },
    {
      label: 'Status',
      head: 'w-24',
      value: (item) => {
        const badge = questionBadge(item);
        return <Badge tone={BADGE_TONE[badge]}>{badge}</Badge>;
      },
    },
    {
      label: 'Actions',
      head: 'w-48 text-right',
      value: (item) => (
        <div className="flex justify-end gap-1">
          {owner && canAddToKb(item) && (
            <Button size="sm" variant="outline" onClick={() => setAdding(item)}>
              <BookPlus className="h-3.5 w-3.5" aria-hidden /> Add to KB
            </Button>
          )}
          {canResolve(item) && (
            <Button size="icon" variant="ghost" aria-label="Resolve" title="Resolve" disabled={resolve.isPending} onClick={() => resolve.mutate(item.id)}>
              <Check className="h-4 w-4 text-emerald-600" aria-hidden />
            </Button>
          )}
          {owner && (
            <Button size="icon" variant="ghost" aria-label="Delete" title="Delete" disabled={remove.isPending} onClick={() => window.confirm(deleteQuestionConfirmation(item.question)) && remove.mutate(item.id)}>
              <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="AI Questions" subtitle="Review questions your AI agent couldn't answer and add the answers to your knowledge base." />
      <div className="mb-4 flex flex-wrap gap-2" role="group" aria-label="Filter questions">
        {filters.map((f) => (
          <Button key={f.value} size="sm" variant={filter === f.value ? 'primary' : 'outline'} aria-pressed={filter === f.value} onClick={() => setFilter(f.value)}>
            {f.label}
          </Button>
        ))}
      </div>
      <Card>
        <QueryState
          query={q}
          loading="Loading questions..."
          failed="Could not load questions"
          empty={shown.length === 0 && <EmptyState icon={<HelpCircle className="h-6 w-6" />} title="No Questions Yet" text="Questions your AI agent could not answer will appear here." />}
        >
          {() => <AdminTable label="Unanswered questions" stackBelow="xl" columns={columns} rows={shown} rowKey={(item) => item.id} />}
        </QueryState>
      </Card>
      <AddToKbDialog question={adding} onClose={() => setAdding(null)} />
    </>
  );
}
