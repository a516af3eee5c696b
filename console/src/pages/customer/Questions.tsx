import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BookPlus, Check, HelpCircle, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ApiUnansweredQuestion } from '../../../../contract/api';
import { keys } from '../../api/keys';
import { useQuestions } from '../../api/queries';
import { addQuestionToKb, deleteQuestion, resolveQuestion } from '../../api/questions';
import { Dialog } from '../../components/Dialog';
import { Badge, Button, Card, EmptyState, ErrorState, Field, Input, PageHeader, Spinner, Table, cx, tbodyRow, td, th, theadRow } from '../../components/ui';
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
        {q.isLoading ? (
          <Spinner label="Loading questions..." />
        ) : q.isError ? (
          <ErrorState title="Could not load questions" message={messageOr(q.error, 'Please try again.')} onRetry={() => void q.refetch()} />
        ) : shown.length === 0 ? (
          <EmptyState icon={<HelpCircle className="h-6 w-6" />} title="No Questions Yet" text="Questions your AI agent could not answer will appear here." />
        ) : (
          <Table label="Unanswered questions" stackBelow="xl">
            <thead>
              <tr className={theadRow}>
                <th className={th}>Question</th>
                <th className={cx(th, 'w-36')}>Caller</th>
                <th className={th}>AI Response</th>
                <th className={cx(th, 'w-36')}>Date</th>
                <th className={cx(th, 'w-24')}>Status</th>
                <th className={cx(th, 'w-48 text-right')}>Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((item) => {
                const badge = questionBadge(item);
                return (
                  <tr key={item.id} className={tbodyRow}>
                    <td data-label="Question" className={cx(td, 'break-words font-medium')}>{item.question}</td>
                    <td data-label="Caller" className={cx(td, 'whitespace-nowrap tabular-nums')}>{formatPhone(item.callerNumber)}</td>
                    <td data-label="AI Response" className={cx(td, 'break-words text-slate-600 dark:text-slate-400')}>{item.aiResponse || NA}</td>
                    <td data-label="Date" className={cx(td, 'whitespace-nowrap tabular-nums')}>{formatDateTime(item.createdAt)}</td>
                    <td data-label="Status" className={td}>
                      <Badge tone={BADGE_TONE[badge]}>{badge}</Badge>
                    </td>
                    <td data-label="Actions" className={td}>
                      <div className="flex justify-end gap-1">
                        {canAddToKb(item) && (
                          <Button size="sm" variant="outline" onClick={() => setAdding(item)}>
                            <BookPlus className="h-3.5 w-3.5" aria-hidden /> Add to KB
                          </Button>
                        )}
                        {canResolve(item) && (
                          <Button size="icon" variant="ghost" aria-label="Resolve" title="Resolve" disabled={resolve.isPending} onClick={() => resolve.mutate(item.id)}>
                            <Check className="h-4 w-4 text-emerald-600" aria-hidden />
                          </Button>
                        )}
                        <Button size="icon" variant="ghost" aria-label="Delete" title="Delete" disabled={remove.isPending} onClick={() => window.confirm(deleteQuestionConfirmation(item.question)) && remove.mutate(item.id)}>
                          <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
                        </Button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </Card>
      <AddToKbDialog question={adding} onClose={() => setAdding(null)} />
    </>
  );
}
