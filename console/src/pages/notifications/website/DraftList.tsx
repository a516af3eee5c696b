import { useState } from 'react';
import type { ApiKbDraft } from '../../../../../contract/website';
import type { DraftDecision } from '../../../api/website';
import { Dialog } from '../../../components/Dialog';
import { Button } from '../../../components/ui';
import { DraftCard } from './DraftCard';

type All = 'approveAll' | 'rejectAll';

const CONFIRM: Record<All, { title: (n: number) => string; text: string; button: string }> = {
  approveAll: {
    title: (n) => (n === 1 ? 'Approve the last draft?' : `Approve all ${n} drafts?`),
    text: 'They are added to your knowledge base as they are drafted, and your agent answers from them on the next call. Wording you changed in a draft and did not approve on its own is not used.',
    button: 'Approve all',
  },
  rejectAll: {
    title: (n) => (n === 1 ? 'Reject the last draft?' : `Reject all ${n} drafts?`),
    text: 'None of them reaches your agent. The next check of your website drafts only what changed.',
    button: 'Reject all',
  },
};

/** The drafts waiting for the owner, one card each, and all of them decided at once after a confirmation. */
export function DraftList({ drafts, busy, decide }: { drafts: ApiKbDraft[]; busy: boolean; decide: (d: DraftDecision) => void }) {
  const [confirm, setConfirm] = useState<All | null>(null);
  if (!drafts.length) return null;
  const asked = confirm && CONFIRM[confirm];
  return (
    <section aria-labelledby="website-drafts" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="website-drafts" className="text-sm font-semibold">
          Drafts to review ({drafts.length})
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={busy} onClick={() => setConfirm('approveAll')}>
            Approve all
          </Button>
          <Button variant="outline" disabled={busy} onClick={() => setConfirm('rejectAll')}>
            Reject all
          </Button>
        </div>
      </div>
      <p className="text-sm text-slate-500 dark:text-slate-400">Nothing reaches your agent until you approve it. Change the wording first if you like.</p>
      {drafts.map((d) => (
        <DraftCard key={d.id} draft={d} busy={busy} onApprove={(body) => decide({ kind: 'approve', id: d.id, body })} onReject={() => decide({ kind: 'reject', id: d.id })} />
      ))}
      <Dialog open={asked != null} onClose={() => setConfirm(null)} title={asked ? asked.title(drafts.length) : ''} description={asked?.text}>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setConfirm(null)}>
            Cancel
          </Button>
          <Button
            variant={confirm === 'rejectAll' ? 'danger' : 'primary'}
            onClick={() => {
              if (confirm) decide({ kind: confirm });
              setConfirm(null);
            }}
          >
            {asked?.button}
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
