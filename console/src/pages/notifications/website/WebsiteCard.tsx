import { Globe } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { WEBSITE_LIMITS } from '../../../../../contract/rules';
import { useDecideDrafts, useSaveWebsite, useWebsite, type DraftDecision } from '../../../api/website';
import { PlainCard, type CardFrame } from '../../../components/card-frame';
import { SwitchRow } from '../../../components/SwitchRow';
import { Button, ErrorState, Field, Input, Spinner } from '../../../components/ui';
import { fieldErrors, messageOr } from '../../../lib/errors';
import { crawlActive, crawlCounts, crawlFailure, crawlProgress, startLabel, websiteSummary } from '../../../lib/website-words';
import { toast } from '../../../toast/use-toast';
import { DraftList } from './DraftList';

const DONE: Record<DraftDecision['kind'], string> = { approve: 'Draft approved', reject: 'Draft rejected', approveAll: 'Drafts approved', rejectAll: 'Drafts rejected' };

/**
 * "Learn from my website" (issue 55), under the Knowledge Base editor: the owner's address, a
 * crawl started and followed, what it could not read, and the drafts it made for the owner to
 * approve. `onKnowledgeBase` hears the knowledge base as an approval left it.
 */
export function WebsiteCard({ Frame = PlainCard, onKnowledgeBase }: { Frame?: CardFrame; onKnowledgeBase: (text: string) => void }) {
  const website = useWebsite();
  const save = useSaveWebsite();
  const decide = useDecideDrafts(onKnowledgeBase);
  // What the owner typed; until then the saved address.
  const [typed, setTyped] = useState<string | null>(null);
  const [weeklyUnsaved, setWeeklyUnsaved] = useState(true);
  const [problem, setProblem] = useState<{ message: string; url?: string } | null>(null);
  const data = website.data;
  const site = data?.site ?? null;
  const crawl = data?.crawl ?? null;
  const url = typed ?? site?.url ?? '';
  const active = crawlActive(crawl);
  const refused = (e: unknown, fallback: string) => setProblem({ message: messageOr(e, fallback), url: fieldErrors(e).url });

  const start = () => {
    setProblem(null);
    const address = url.trim();
    const changed = !site || address !== site.url;
    save.mutate({ site: changed ? { url: address, weekly: site?.weekly ?? weeklyUnsaved } : undefined, crawl: true }, { onSuccess: () => setTyped(null), onError: (e) => refused(e, 'Could not start reading your website') });
  };
  const setWeekly = (weekly: boolean) => {
    if (!site) return setWeeklyUnsaved(weekly);
    setProblem(null);
    save.mutate({ site: { url: site.url, weekly }, crawl: false }, { onError: (e) => refused(e, 'Could not save the weekly check') });
  };
  const onDecide = (d: DraftDecision) =>
    decide.mutate(d, {
      onSuccess: (res) => toast({ title: DONE[d.kind], description: d.kind.endsWith('All') && res?.decided != null ? `${res.decided} decided.` : undefined }),
      onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Could not save your decision') }),
    });
  // Enter in the address starts the crawl; in the settings form around it, it would save the section instead.
  const onEnter = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (!active && url.trim()) start();
  };

  const pending = data?.drafts.length ?? 0;
  // On a phone the card stays open while there is something to follow or decide: a crawl held it
  // open, and closing it the moment the crawl ends would hide what it found.
  const holdOpen = active || problem != null || crawl?.state === 'failed' || pending > 0;
  return (
    <Frame title="Learn from my website" description="Draft your knowledge base from your own website; you approve every answer" summary={websiteSummary(crawl, pending)} keepOpen={holdOpen}>
      {website.isPending ? (
        <Spinner label="Loading your website..." />
      ) : website.isError ? (
        <ErrorState title="Could not load your website" message={messageOr(website.error, 'Please try again.')} onRetry={() => void website.refetch()} />
      ) : (
        <div className="grid gap-5 p-5">
          <div className="grid gap-3">
            <Field label="Your website" hint="The address your customers type, e.g. www.example.co.uk. We read only that site, at most 200 pages, and obey its robots.txt." error={problem?.url}>
              <Input type="url" inputMode="url" autoComplete="url" maxLength={WEBSITE_LIMITS.urlLength} value={url} onChange={(e) => setTyped(e.target.value)} onKeyDown={onEnter} placeholder="www.example.co.uk" />
            </Field>
            <div className="flex flex-wrap items-center gap-3">
              <Button onClick={start} disabled={save.isPending || active || !url.trim() || data?.crawlsLeftToday === 0}>
                <Globe className="h-4 w-4" aria-hidden />
                {startLabel(crawl)}
              </Button>
              <span className="text-sm text-slate-500 dark:text-slate-400">Checks left today: {data?.crawlsLeftToday ?? 0}</span>
            </div>
            {problem && !problem.url && (
              <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
                {problem.message}
              </p>
            )}
          </div>
          <SwitchRow label="Check my website every week" text="New or changed answers on your site come here as drafts; your own answers are never overwritten." checked={site?.weekly ?? weeklyUnsaved} onChange={setWeekly} disabled={save.isPending} />
          <div role="status" aria-live="polite" className="grid gap-2 text-sm">
            {crawl && active && (
              <p className="flex items-center gap-2">
                <span aria-hidden className="inline-block h-2 w-2 animate-pulse rounded-full bg-indigo-600" />
                {crawlProgress(crawl)}
              </p>
            )}
            {crawl?.state === 'done' && <p>{crawlCounts(crawl)}</p>}
            {crawl?.state === 'failed' && <p className="font-medium text-red-700 dark:text-red-400">{crawlFailure(crawl)}</p>}
          </div>
          {crawl && !active && crawl.problems.length > 0 && (
            <section aria-labelledby="website-problems" className="grid gap-1">
              <h3 id="website-problems" className="text-sm font-semibold">
                What we could not read
              </h3>
              <ul className="grid gap-1 text-sm">
                {crawl.problems.map((p, i) => (
                  <li key={i} className="[overflow-wrap:anywhere]">
                    <span className="text-slate-500 dark:text-slate-400">{p.url}</span>: {p.problem}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <DraftList drafts={data?.drafts ?? []} busy={decide.isPending} decide={onDecide} />
        </div>
      )}
    </Frame>
  );
}
