import { useId, useState } from 'react';
import type { ApiDraftApprove, ApiKbDraft } from '../../../../../contract/website';
import { Badge, Button, Field, Input, Textarea, type BadgeTone } from '../../../components/ui';
import { DraftHours } from './DraftHours';

const KIND: Record<ApiKbDraft['kind'], { label: string; tone: BadgeTone }> = {
  new: { label: 'New answer', tone: 'indigo' },
  change: { label: 'Change', tone: 'amber' },
  hours: { label: 'Opening hours', tone: 'blue' },
  areas: { label: 'Areas covered', tone: 'green' },
};

/** Long addresses and quotes break anywhere rather than widen a phone's page. */
const wraps = '[overflow-wrap:anywhere]';

/**
 * One draft from the owner's website: its question and answer, editable until approved; the page
 * it came from and the sentence it cites; a change beside the owner's answer it would replace.
 */
export function DraftCard({ draft, busy, onApprove, onReject }: { draft: ApiKbDraft; busy: boolean; onApprove: (body: ApiDraftApprove) => void; onReject: () => void }) {
  const [question, setQuestion] = useState(draft.question);
  const [answer, setAnswer] = useState(draft.answer);
  const [useHours, setUseHours] = useState(false);
  const headingId = useId();
  const kind = KIND[draft.kind];
  const approve = () => {
    // Only what the owner changed is sent: the server keeps the draft's own wording otherwise.
    const body: ApiDraftApprove = {};
    if (question.trim() !== draft.question) body.question = question.trim();
    if (answer.trim() !== draft.answer) body.answer = answer.trim();
    if (useHours) body.useForCallHandling = true;
    onApprove(body);
  };
  return (
    <article aria-labelledby={headingId} className="grid gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={kind.tone}>{kind.label}</Badge>
        <h4 id={headingId} className={`min-w-0 text-sm font-semibold ${wraps}`}>
          {draft.question}
        </h4>
      </div>
      {draft.kind === 'change' && draft.currentAnswer != null && (
        <p className={`rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200 ${wraps}`}>
          Your site now says “{draft.quote}”; your answer says “{draft.currentAnswer}”.
        </p>
      )}
      <Field label="Question">
        <Input value={question} onChange={(e) => setQuestion(e.target.value)} />
      </Field>
      <Field label="Answer">
        <Textarea rows={3} value={answer} onChange={(e) => setAnswer(e.target.value)} />
      </Field>
      {draft.kind !== 'change' && (
        <blockquote className={`border-l-4 border-slate-300 pl-3 text-sm italic text-slate-600 dark:border-slate-600 dark:text-slate-300 ${wraps}`}>
          <span className="sr-only">Quoted from the page: </span>“{draft.quote}”
        </blockquote>
      )}
      <p className={`text-sm ${wraps}`}>
        <span className="text-slate-500 dark:text-slate-400">From </span>
        <a href={draft.sourceUrl} target="_blank" rel="noopener noreferrer" className="inline-block py-2 font-medium text-indigo-700 underline dark:text-indigo-300">
          {draft.sourceUrl}
        </a>
      </p>
      {draft.kind === 'hours' && draft.hours && (
        <>
          <DraftHours hours={draft.hours} />
          <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800 dark:text-slate-200">
            <input type="checkbox" className="h-5 w-5 shrink-0 accent-indigo-600" checked={useHours} onChange={(e) => setUseHours(e.target.checked)} />
            Also use these as my opening hours in Call Handling
          </label>
        </>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="success" disabled={busy || !question.trim() || !answer.trim()} onClick={approve} aria-describedby={headingId}>
          Approve
        </Button>
        <Button variant="outline" disabled={busy} onClick={onReject} aria-describedby={headingId}>
          Reject
        </Button>
      </div>
    </article>
  );
}
