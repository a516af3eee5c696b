import { AlertTriangle, CheckCircle2, FileText, PhoneCall, PhoneForwarded, PhoneMissed, PhoneOutgoing, Play, Search, ShieldAlert, ShieldOff, TrendingUp, Undo2 } from 'lucide-react';
import { createContext, useContext, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { ApiCallLog } from '../../../../contract/api';
import { canRingBack, isToCallBack } from '../../../../contract/callback';
import { isWithheldCaller } from '../../../../contract/withheld';
import { CALL_DETAILS_PARAM } from '../../../../contract/links';
import { useAnalytics, useCallLog, useCallLogs } from '../../api/queries';
import { Dialog } from '../../components/Dialog';
import { PHONE_ONLY, useMediaQuery } from '../../components/use-media-query';
import { CallStatusBadge, UrgencyBadge } from '../../components/StatusBadge';
import { SearchToolbar } from '../../components/SearchToolbar';
import { Badge, Button, Card, EmptyState, ErrorState, NO_FIGURE, PageHeader, Skeleton, StatCard, cx } from '../../components/ui';
import { CALL_FILTERS, callStats, callStatsFromTotals, filterCalls, screenedLabel, screenedOnly, toCallBackOnly, urgentOnly, type CallFilter } from '../../lib/calls';
import { dayDividers } from '../../lib/call-days';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { FirstRunChecklist } from './FirstRunChecklist';
import { NA, capitalise, formatCallDate, formatCaller, formatDateTime, formatMmSs, formatPhone } from '../../lib/format';
import { useMarkCalledBack } from '../../api/call-logs';
import { usePhoneQuery } from '../../lib/phone-search';
import { showUrgencyOnCard, urgencyDetail } from '../../lib/urgency';
import { useCallHandling, useListEntry } from '../../api/call-handling';
import { useSession } from '../../api/session';
import { callHandlingTags, callerTagLabel, periodLabel, transferDetail } from '../../lib/call-handling';
import { liveHistoryLine, takenOverWords } from '../../lib/listen-words';
import { CallBooking } from '../booking/CallBooking';
import { CallTranscript, callLanguageName } from './CallTranscript';
import { CallBacksTracker } from './CallBacksTracker';
import { RemoveSpamMark, SpamButtons, SpamListBadge, useOnSpamList } from './SpamMark';
import { AudioClip } from '../../components/AudioClip';
import { PersonFilter, usePersonParam } from '../../components/PersonFilter';
import { peopleOf, type Attributed } from '../../lib/team';

const openRecording = (url: string) => window.open(url, '_blank', 'noopener,noreferrer');

/** Missed calls and messages are the ones an owner rings back (never a withheld or blocked caller); a phone dials straight from the card. */
const canCallBack = (call: ApiCallLog) => (call.status === 'missed' || call.status === 'voicemail') && canRingBack(call);

/** The Call back link: dials the caller from a phone. */
function CallBackLink({ call, className }: { call: ApiCallLog; className?: string }) {
  return (
    <a
      href={`tel:${call.fromNumber}`}
      aria-label={`Call back ${formatPhone(call.fromNumber)}`}
      className={cx('inline-flex h-11 items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-700', className)}
    >
      <PhoneOutgoing className="h-4 w-4 shrink-0" aria-hidden /> <span className="max-w-full truncate">Call back</span>
    </a>
  );
}

/**
 * The tracker's action: "Mark called back" while the caller waits, "Undo called back" once marked.
 * `compact` (a card's row on a phone) shows one word, with the full name for screen readers.
 */
function CalledBackButton({ call, size = 'sm', compact = false }: { call: ApiCallLog; size?: 'sm' | 'md'; compact?: boolean }) {
  const mark = useMarkCalledBack();
  const waiting = isToCallBack(call);
  if (!waiting && !call.calledBackAt) return null;
  const short = (word: string, rest: string) =>
    compact ? (
      <span className="max-w-full truncate">
        <span className="sm:hidden">{word}</span>
        <span className="max-sm:hidden">{rest}</span>
      </span>
    ) : (
      rest
    );
  return waiting ? (
    <Button size={size} variant="outline" disabled={mark.isPending} onClick={() => mark.mutate({ id: call.id, calledBack: true })} aria-label={compact ? 'Mark called back: done' : undefined}>
      <CheckCircle2 className="h-3.5 w-3.5 shrink-0" aria-hidden /> {short('Done', 'Mark called back')}
    </Button>
  ) : (
    <Button size={size} variant="outline" disabled={mark.isPending} onClick={() => mark.mutate({ id: call.id, calledBack: false })} aria-label="Undo called back">
      <Undo2 className="h-3.5 w-3.5 shrink-0" aria-hidden /> {short('Undo', 'Undo called back')}
    </Button>
  );
}

/** Numbers on the block list now, when any call shown was blocked (null while unknown). */
const BlockedNow = createContext<ReadonlySet<string> | null>(null);

/** A blocked caller's "Unblock": takes the number off the block list in one click (shown while it is on it). */
function UnblockButton({ call, size = 'sm' }: { call: ApiCallLog; size?: 'sm' | 'md' }) {
  const blocked = useContext(BlockedNow);
  const unblock = useListEntry();
  if (call.callerTag !== 'blocked' || (blocked !== null && !blocked.has(call.fromNumber))) return null;
  return (
    <Button
      size={size}
      variant="outline"
      disabled={unblock.isPending}
      onClick={() => unblock.mutate({ list: 'block', number: call.fromNumber, remove: true })}
      aria-label={`Unblock ${formatPhone(call.fromNumber)}`}
    >
      <ShieldOff className="h-3.5 w-3.5" aria-hidden /> Unblock
    </Button>
  );
}

type CardProps = { call: ApiCallLog; day: string | null; onOpen: () => void; showPerson: boolean };

/**
 * The owner's card reads the spam list (owner-only) to mark and unmark callers on it; a staff
 * member's sign-in (issue 58) gets the card without it, so their page asks nothing it is refused.
 */
function OwnerCallCard(props: CardProps) {
  return <CallCard {...props} owner listed={useOnSpamList(props.call)} />;
}

function CallCard({ call, day, onOpen, showPerson, owner = false, listed = false }: CardProps & { owner?: boolean; listed?: boolean }) {
  const person = showPerson ? (call as ApiCallLog & Attributed).staffName : null;
  const callBack = canCallBack(call);
  const waiting = isToCallBack(call);
  return (
    <li className="min-w-0">
      {day && <h3 className="mb-2 px-1 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{day}</h3>}
      {/* Compact on a phone (an owner scans many): caller and time on one line, badges on the next, actions in one row. */}
      <div className="relative rounded-xl border border-slate-200 bg-white p-3 shadow-sm transition hover:border-indigo-300 hover:shadow-md sm:p-4 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1.5 sm:gap-3">
          <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 sm:block">
            {/* The caller's number is the card's button; its ::after stretches over the whole card. */}
            <button type="button" onClick={onOpen} className="text-left font-semibold after:absolute after:inset-0 after:rounded-xl after:content-['']">
              {formatCaller(call.fromNumber)}
            </button>
            <p className="text-sm text-slate-500 sm:mt-0.5 dark:text-slate-400">{formatCallDate(call.createdAt)}</p>
            {person && <p className="break-words text-sm font-medium text-slate-700 dark:text-slate-300">For {person}</p>}
          </div>
          <div className="flex flex-wrap items-center gap-1.5 text-sm sm:gap-2">
            {waiting && <Badge tone="amber">To call back</Badge>}
            {call.calledBackAt && <Badge tone="green">Called back</Badge>}
            {call.urgency && showUrgencyOnCard(call.urgency) && <UrgencyBadge urgency={call.urgency} />}
            {call.screenedBy && <Badge tone="gray">Screened</Badge>}
            {owner && <SpamListBadge call={call} />}
            {callHandlingTags(call).map((t) => (
              <Badge key={t.label} tone={t.tone}>
                {t.label}
              </Badge>
            ))}
            <CallStatusBadge status={call.status} />
            <span className="tabular-nums text-slate-600 dark:text-slate-300" aria-label="Duration">
              {formatMmSs(call.duration)}
            </span>
          </div>
        </div>
        {call.urgency === 'urgent' && call.urgencyReason && (
          <p className="mt-2 break-words text-sm font-medium text-red-700 sm:mt-3 dark:text-red-300">{urgencyDetail(call.urgency, call.urgencyReason)}</p>
        )}
        {transferDetail(call) && (
          <p className="mt-2 flex items-center gap-1.5 text-sm text-slate-600 sm:mt-3 dark:text-slate-300">
            <PhoneForwarded className="h-3.5 w-3.5" aria-hidden /> Transfer: {transferDetail(call)}
          </p>
        )}
        {call.aiSummary && <p className="mt-2 line-clamp-2 wrap-anywhere text-sm text-slate-700 sm:mt-3 dark:text-slate-300">{call.aiSummary}</p>}
        {(call.recordingUrl || call.transcription || callBack || call.calledBackAt || (owner && call.callerTag === 'blocked') || listed) && (
          // One row of actions on a phone (.call-card-actions in index.css): the words under each icon, SPEC's in full for Play Recording and View Transcript (two lines where narrow), the full name for screen readers.
          <div role="group" aria-label="Actions" className="call-card-actions relative z-10 mt-2 sm:mt-3 sm:flex sm:flex-wrap sm:gap-2">
            {callBack && <CallBackLink call={call} className="md:hidden" />}
            {call.recordingUrl && (
              <Button size="sm" variant="outline" onClick={() => openRecording(call.recordingUrl!)} aria-label="Play Recording">
                <Play className="h-3.5 w-3.5 shrink-0" aria-hidden /> <span className="call-card-word">Play Recording</span>
              </Button>
            )}
            {call.transcription && (
              <Button size="sm" variant="outline" onClick={onOpen} aria-label="View Transcript">
                <FileText className="h-3.5 w-3.5 shrink-0" aria-hidden /> <span className="call-card-word">View Transcript</span>
              </Button>
            )}
            <CalledBackButton call={call} compact />
            {owner && <UnblockButton call={call} />}
            {owner && <RemoveSpamMark call={call} />}
          </div>
        )}
      </div>
    </li>
  );
}

/** SPEC's loading text, over grey cards the shape of the calls to come. */
function CallsLoading() {
  return (
    <div role="status" className="grid gap-3 p-4">
      <p className="text-sm text-slate-600 dark:text-slate-400">Loading call logs...</p>
      {[0, 1, 2].map((i) => (
        <div key={i} aria-hidden className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
          <div className="flex justify-between gap-3">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-4 w-20" />
          </div>
          <Skeleton className="mt-2 h-3 w-32" />
          <Skeleton className="mt-4 h-3 w-full" />
        </div>
      ))}
    </div>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium">{children}</dd>
    </div>
  );
}

/** What happened while the call was live (issue 54): who took it over, and each listen, take-over and End call. */
function LiveHistory({ call }: { call: Pick<ApiCallLog, 'takenOver' | 'liveHistory'> }) {
  const takenOver = call.takenOver ? takenOverWords(call.takenOver.by, call.takenOver.at, call.takenOver.via) : null;
  if (!takenOver && call.liveHistory.length === 0) return null;
  return (
    <section>
      <h3 className="mb-1.5 text-sm font-semibold">While it was live</h3>
      {takenOver && <p className="mb-1.5 text-sm font-medium">{takenOver}</p>}
      {call.liveHistory.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-700 dark:text-slate-300" aria-label="Live history">
          {call.liveHistory.map((entry, i) => (
            <li key={i}>{liveHistoryLine(entry)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CallDetails({ call, onClose, owner }: { call: ApiCallLog | null; onClose: () => void; owner: boolean }) {
  return (
    <Dialog open={call !== null} onClose={onClose} size="lg" title="Call Details" description={call ? `${formatCaller(call.fromNumber)} · ${formatCallDate(call.createdAt)}` : undefined}>
      {call && (
        <div className="grid gap-5">
          <section>
            <h3 className="mb-1.5 text-sm font-semibold">AI Summary</h3>
            <p className="rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60">{call.aiSummary || 'No summary available'}</p>
          </section>
          <CallBooking call={call} />
          <CallTranscript call={call} />
          <section>
            <h3 className="mb-1.5 text-sm font-semibold">Call Information</h3>
            <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200 px-3 dark:divide-slate-800 dark:border-slate-800">
              <Row label="From">{formatCaller(call.fromNumber)}</Row>
              {call.testCall && <Row label="Test call">Your own "Call my line" call: nobody to call back</Row>}
              <Row label="To">{formatPhone(call.toNumber)}</Row>
              <Row label="Status">{call.status ? capitalise(call.status) : NA}</Row>
              <Row label="Duration">{formatMmSs(call.duration)}</Row>
              {callLanguageName(call.callerLanguage) && <Row label="Language">{callLanguageName(call.callerLanguage)}</Row>}
              <Row label="Notification Sent">{call.notificationSent ? 'Yes' : 'No'}</Row>
              <Row label="Urgency">{urgencyDetail(call.urgency, call.urgencyReason)}</Row>
              <Row label="Called Back">{call.calledBackAt ? formatDateTime(call.calledBackAt) : isToCallBack(call) ? 'Not yet' : NA}</Row>
              {call.callerTag && <Row label="Caller">{callerTagLabel(call.callerTag)}</Row>}
              {screenedLabel(call) && <Row label="Screened">{`${screenedLabel(call)}: not texted to you`}</Row>}
              {transferDetail(call) && <Row label="Transfer">{transferDetail(call)}</Row>}
              {periodLabel(call.period) && <Row label="Came in">{periodLabel(call.period)}</Row>}
              {(call as ApiCallLog & Attributed).staffName && <Row label="Person">{(call as ApiCallLog & Attributed).staffName}</Row>}
              {(call as ApiCallLog & Attributed).routingNote && <Row label="Routing">{(call as ApiCallLog & Attributed).routingNote}</Row>}
            </dl>
          </section>
          <LiveHistory call={call} />
          {!isWithheldCaller(call.fromNumber) && !call.testCall && (
            <p className="text-sm">
              <Link to={`/dashboard/texts?caller=${encodeURIComponent(call.fromNumber)}`} className="text-indigo-700 underline dark:text-indigo-300">
                Texts with this caller
              </Link>
            </p>
          )}
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
            {canCallBack(call) && <CallBackLink call={call} />}
            <CalledBackButton call={call} size="md" />
            {/* Blocking and the spam list are the owner's (403 "Only the business owner can do that." to staff). */}
            {owner && <UnblockButton call={call} size="md" />}
            {owner && <SpamButtons call={call} />}
            <Button disabled={!call.recordingUrl} onClick={() => call.recordingUrl && openRecording(call.recordingUrl)}>
              <Play className="h-4 w-4" aria-hidden /> Play Recording
            </Button>
            {call.recordingUrl && (
              // Listen without leaving the dialog; fetched only when played.
              <AudioClip controls preload="none" src={call.recordingUrl} aria-label="Recording" className="h-11 w-full min-w-0 flex-1" />
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}

export default function CallLogs() {
  // The person filter asks the server for one person's calls; its choices are the people the
  // unfiltered list names, so a business of one sees no filter and no extra request.
  const [staffId, setStaffId] = usePersonParam();
  const owner = useSession().staff === null;
  const everyone = useCallLogs();
  const q = useCallLogs(staffId);
  const people = useMemo(() => peopleOf(everyone.data?.pages.flatMap((p) => p.callLogs) ?? []), [everyone.data]);
  const byPerson = people.length > 1 || staffId !== null;
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<CallFilter>('all');
  const [waitingOnly, setWaitingOnly] = useState(false);
  const [urgentOn, setUrgentOnly] = useState(false);
  const [screenedOn, setScreenedOnly] = useState(false);
  // By id, so the dialog shows the call as refetched after Mark called back. A link from an
  // e-mail (/dashboard?call=41) opens that call's details: from the list when it has it,
  // otherwise read on its own (an older call than the pages loaded).
  const [params, setParams] = useSearchParams();
  const [selectedId, setSelectedId] = useState<number | null>(() => Number(params.get(CALL_DETAILS_PARAM)) || null);
  const closeDetails = () => {
    setSelectedId(null);
    if (params.has(CALL_DETAILS_PARAM)) {
      params.delete(CALL_DETAILS_PARAM);
      setParams(params, { replace: true });
    }
  };
  const calls = useMemo(() => q.data?.pages.flatMap((p) => p.callLogs) ?? [], [q.data]);
  const listed = calls.find((c) => c.id === selectedId);
  const linked = useCallLog(selectedId, { enabled: q.isSuccess && !listed });
  const selected = listed ?? linked.data?.callLog ?? null;
  // A link to a call that is gone (erased) or not this owner's says so instead of opening nothing.
  const linkFailed = useEffectEvent(() => {
    toast({ variant: 'destructive', title: 'Error', description: messageOr(linked.error, 'Could not open that call') });
    closeDetails();
  });
  useEffect(() => {
    // The failure is news from the server, not state React derived: reacting to it once (a toast,
    // the dialog closed, the link's ?call= dropped) is what an effect is for.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- see above
    if (linked.isError) linkFailed();
  }, [linked.isError]);
  const waitingCount = useMemo(() => toCallBackOnly(calls, true).length, [calls]);
  const urgentCount = useMemo(() => urgentOnly(calls, true).length, [calls]);
  const screenedCount = useMemo(() => screenedOnly(calls, true).length, [calls]);
  // A business with more calls than one page gets its card figures from the server's totals.
  const more = Boolean(q.hasNextPage);
  // One person's figures come from their loaded calls: the server's totals are the whole business's.
  // A staff sign-in's figures are always its loaded calls: the analytics are the owner's.
  const partial = more && staffId === null && owner;
  const totals = useAnalytics({ enabled: partial });
  // Figures only from an answer: a skeleton while loading (undefined), none when a read failed (null).
  let stats: ReturnType<typeof callStats> | null | undefined;
  if (q.isError || (partial && totals.isError)) stats = null;
  else if (q.isLoading) stats = undefined;
  else if (partial) stats = totals.data ? callStatsFromTotals(totals.data.totalCalls, totals.data.statusBreakdown) : undefined;
  else stats = callStats(calls);
  const figure = <K extends 'total' | 'answered' | 'missed'>(k: K) => (stats ? stats[k] : stats);
  const figures = [
    { label: 'Total Calls', value: figure('total'), icon: <PhoneCall className="h-4 w-4" /> },
    { label: 'Answered', value: figure('answered'), icon: <CheckCircle2 className="h-4 w-4" />, tone: 'bg-emerald-50 text-emerald-600 dark:bg-emerald-950 dark:text-emerald-300' },
    { label: 'Missed', value: figure('missed'), icon: <PhoneMissed className="h-4 w-4" />, tone: 'bg-red-50 text-red-600 dark:bg-red-950 dark:text-red-300' },
    { label: 'Response Rate', value: stats ? `${stats.responseRate}%` : stats, icon: <TrendingUp className="h-4 w-4" />, tone: 'bg-sky-50 text-sky-600 dark:bg-sky-950 dark:text-sky-300' },
  ];
  const phone = useMediaQuery(PHONE_ONLY);
  const phoneQuery = usePhoneQuery(search);
  const shown = useMemo(
    () => screenedOnly(urgentOnly(toCallBackOnly(filterCalls(calls, search, status, phoneQuery), waitingOnly), urgentOn), screenedOn),
    [calls, search, status, phoneQuery, waitingOnly, urgentOn, screenedOn],
  );
  const days = useMemo(() => dayDividers(shown), [shown]);
  const filtering = search !== '' || status !== 'all' || waitingOnly || urgentOn || screenedOn || staffId !== null;
  const personName = staffId === null ? null : (people.find((p) => p.id === staffId)?.name ?? 'one person');
  const filterNames = [personName && `for ${personName}`, status !== 'all' && CALL_FILTERS.find((f) => f.value === status)?.label, waitingOnly && 'to call back', urgentOn && 'urgent', screenedOn && 'screened', search && `matching "${search}"`]
    .filter(Boolean)
    .join(', ');
  // The block list is read only when a blocked call is listed, to show Unblock while the number is on it.
  const anyBlocked = useMemo(() => calls.some((c) => c.callerTag === 'blocked'), [calls]);
  const handling = useCallHandling({ enabled: anyBlocked && owner });
  const blockedNow = useMemo(() => (handling.data ? new Set(handling.data.callHandling.blockList) : null), [handling.data]);

  let body: React.ReactNode;
  if (q.isLoading) body = <CallsLoading />;
  else if (q.isError) body = <ErrorState title="Could not load call logs" message={messageOr(q.error, 'Please try again.')} onRetry={() => void q.refetch()} />;
  else if (calls.length === 0 && personName) body = <EmptyState icon={<PhoneCall className="h-6 w-6" />} title={`No calls for ${personName}`} text="Choose Everyone to see every call." />;
  else if (calls.length === 0)
    body = <EmptyState icon={<PhoneCall className="h-6 w-6" />} title="No calls yet" text="Your call logs will appear here once you start receiving calls." />;
  else if (shown.length === 0) body = <EmptyState icon={<Search className="h-6 w-6" />} title="No matching calls" text="Try adjusting your search or filter criteria." />;
  else
    body = (
      // One column that may shrink below its content: a card never grows wider than the list.
      <ul className="grid grid-cols-1 gap-3 p-2 sm:p-4" aria-label="Calls">
        {shown.map((c, i) => (
          owner ? (
            <OwnerCallCard key={c.id} call={c} day={days[i] ?? null} onOpen={() => setSelectedId(c.id)} showPerson={byPerson} />
          ) : (
            <CallCard key={c.id} call={c} day={days[i] ?? null} onOpen={() => setSelectedId(c.id)} showPerson={byPerson} />
          )
        ))}
      </ul>
    );

  return (
    <BlockedNow.Provider value={blockedNow}>
      <PageHeader title="Call Logs" subtitle="Monitor all your business calls in one place" />
      {owner && everyone.isSuccess && <FirstRunChecklist hasCalls={everyone.data.pages.some((p) => p.callLogs.some((c) => !c.testCall))} />}
      {/* A phone shows the four figures in one short strip, so the first calls are on the first screen. */}
      {phone ? (
        <dl className="mb-3 grid grid-cols-4 divide-x divide-slate-200 rounded-xl border border-slate-200 bg-white text-center shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label="Call figures">
          {figures.map(({ label, value }) => (
            <div key={label} className="flex min-w-0 flex-col-reverse justify-end px-1 py-1.5" aria-busy={value === undefined || undefined}>
              <dt className="text-[11px] leading-3.5 text-slate-600 dark:text-slate-400">{label}</dt>
              <dd className="text-base font-bold tabular-nums" data-testid="stat-value">
                {value === undefined ? <Skeleton className="mx-auto h-5 w-8" /> : value === null ? NO_FIGURE : value}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <div className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
          {figures.map(({ label, value, icon, tone }) => (
            <StatCard key={label} label={label} value={value} icon={icon} tone={tone} />
          ))}
        </div>
      )}
      {/* The assistant's call-backs (issue 56), beside the owner's own "To call back" list below. */}
      <CallBacksTracker owner={owner} onOpenCall={setSelectedId} />
      <Card>
        {/* On a phone: search and status on one line, the two filters side by side on the next. */}
        <SearchToolbar
          className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 border-b border-slate-100 p-3 sm:flex sm:gap-3 sm:p-4 dark:border-slate-800"
          search={search}
          onSearch={setSearch}
          searchLabel="Search calls"
          placeholder="Search calls..."
          filter={status}
          onFilter={setStatus}
          filterLabel="Filter by status"
          filters={CALL_FILTERS}
          filterClassName="w-28 sm:w-44"
        >
          {/* On a phone a filter's words wrap rather than cut: its count always shows (issue 57, item 7). */}
          <div className="col-span-2 flex gap-2 sm:gap-3 [&>*]:flex-1 sm:[&>*]:flex-none">
            <Button variant={waitingOnly ? 'primary' : 'outline'} aria-pressed={waitingOnly} onClick={() => setWaitingOnly((on) => !on)} className="min-w-0 max-sm:px-2 sm:w-auto">
              <PhoneOutgoing className="h-4 w-4 shrink-0 max-sm:hidden" aria-hidden /> <span className="min-w-0 max-sm:whitespace-normal max-sm:text-center max-sm:text-[0.8125rem] max-sm:leading-tight sm:truncate">To call back <span className="whitespace-nowrap">({waitingCount})</span></span>
            </Button>
            <Button variant={urgentOn ? 'primary' : 'outline'} aria-pressed={urgentOn} onClick={() => setUrgentOnly((on) => !on)} className="min-w-0 max-sm:px-2 sm:w-auto">
              <AlertTriangle className="h-4 w-4 shrink-0 max-sm:hidden" aria-hidden /> <span className="min-w-0 max-sm:whitespace-normal max-sm:text-center max-sm:text-[0.8125rem] max-sm:leading-tight sm:truncate">Urgent <span className="whitespace-nowrap">({urgentCount})</span></span>
            </Button>
            <Button variant={screenedOn ? 'primary' : 'outline'} aria-pressed={screenedOn} onClick={() => setScreenedOnly((on) => !on)} className="min-w-0 max-sm:px-2 sm:w-auto">
              <ShieldAlert className="h-4 w-4 shrink-0 max-sm:hidden" aria-hidden /> <span className="min-w-0 max-sm:whitespace-normal max-sm:text-center max-sm:text-[0.8125rem] max-sm:leading-tight sm:truncate">Screened <span className="whitespace-nowrap">({screenedCount})</span></span>
            </Button>
          </div>
          {byPerson && <PersonFilter people={people} value={staffId} onChange={setStaffId} className="col-span-2" />}
        </SearchToolbar>
        {/* What the filters did, said where the results start (and to screen readers). */}
        <p role="status" className={filtering && calls.length > 0 ? 'border-b border-slate-100 px-4 py-2 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-300' : 'sr-only'}>
          {filtering && calls.length > 0 && `Showing ${shown.length.toLocaleString('en-GB')} of ${calls.length.toLocaleString('en-GB')} calls: ${filterNames}`}
        </p>
        {body}
        {more && calls.length > 0 && (
          <div className="flex flex-col items-center gap-2 border-t border-slate-100 p-4 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
            <p>Search and filter cover the {calls.length.toLocaleString('en-GB')} most recent calls shown here.</p>
            <Button onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
              {q.isFetchingNextPage ? 'Loading...' : 'Load older calls'}
            </Button>
          </div>
        )}
      </Card>
      <CallDetails call={selected} onClose={closeDetails} owner={owner} />
    </BlockedNow.Provider>
  );
}
