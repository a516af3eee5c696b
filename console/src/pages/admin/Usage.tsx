import { ArrowRight, Hash, MessageSquare, Mic, Phone, PhoneOutgoing, PoundSterling, RefreshCw, Wallet } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import type { ApiUsage } from '../../../../contract/api';
import { useUsage } from '../../api/queries';
import { useMeta } from '../../api/session';
import { Button, Card, CardHeader, ErrorState, PageHeader, Spinner, cx } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { NA, capitalise, formatDate, formatGBP, formatMoney } from '../../lib/format';
import { costSplit, isLowBalance, NUMBER_RENTAL_TEXT } from '../../lib/usage';
import { SubscriptionsCard } from './SubscriptionsCard';

function Line({ label, value, strong }: { label: React.ReactNode; value: React.ReactNode; strong?: boolean }) {
  return (
    <div className={cx('flex justify-between gap-4 py-1.5 text-sm', strong && 'font-semibold')}>
      <span className={strong ? undefined : 'text-slate-500 dark:text-slate-400'}>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}

function Panel({ title, icon, children }: { title: string; icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <span className="text-indigo-600 dark:text-indigo-400">{icon}</span>
            {title}
          </span>
        }
      />
      <div className="divide-y divide-slate-100 px-5 py-3 dark:divide-slate-800">{children}</div>
    </Card>
  );
}

function UsageBody({ u, provider }: { u: ApiUsage; provider: string }) {
  const navigate = useNavigate();
  // No prepaid account (static numbers without a gateway balance): no figure and no warning to give.
  const known = u.balance.available !== false;
  const low = known && isLowBalance(u.balance.amount);
  const split = costSplit(u);
  const calls = u.calls.inbound.count + u.calls.outbound.count;
  const sms = u.sms.inbound.count + u.sms.outbound.count;
  return (
    <>
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <Card className={cx('p-5', low && 'border-red-300 dark:border-red-900')}>
          <p className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
            <Wallet className="h-4 w-4" aria-hidden /> Account Balance
          </p>
          <p className="mt-2 text-2xl font-bold tabular-nums">{known ? formatMoney(u.balance.amount, u.balance.currency) : NA}</p>
          {known && (
            <p className={cx('mt-1 text-xs font-medium', low ? 'text-red-600 dark:text-red-400' : 'text-emerald-600 dark:text-emerald-400')}>
              {low ? 'Low balance - top up soon' : 'Healthy'}
            </p>
          )}
        </Card>
        <Card className="p-5">
          <p className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
            <PoundSterling className="h-4 w-4" aria-hidden /> This Month Cost
          </p>
          <p className="mt-2 text-2xl font-bold tabular-nums">{formatGBP(u.totalCost)}</p>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">From {formatDate(u.period.startDate)}</p>
        </Card>
        <Card className="p-5">
          <p className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
            <Hash className="h-4 w-4" aria-hidden /> Active Numbers
          </p>
          <p className="mt-2 text-2xl font-bold tabular-nums">{u.phoneNumbers.count}</p>
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{formatGBP(u.phoneNumbers.monthlyCost)}/month rental</p>
        </Card>
      </div>

      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <Panel title="Calls" icon={<Phone className="h-4 w-4" aria-hidden />}>
          <Line label={`Inbound (${u.calls.inbound.count})`} value={formatGBP(u.calls.inbound.price)} />
          <Line label={`Outbound (${u.calls.outbound.count})`} value={formatGBP(u.calls.outbound.price)} />
          <Line label="Total calls" value={calls} strong />
        </Panel>
        <Panel title="SMS" icon={<MessageSquare className="h-4 w-4" aria-hidden />}>
          <Line label={`Sent (${u.sms.outbound.count})`} value={formatGBP(u.sms.outbound.price)} />
          <Line label={`Received (${u.sms.inbound.count})`} value={formatGBP(u.sms.inbound.price)} />
          <Line label="Total messages" value={sms} strong />
        </Panel>
        <Panel title="Phone Numbers" icon={<Hash className="h-4 w-4" aria-hidden />}>
          <Line label="Numbers" value={u.phoneNumbers.count} />
          <Line label="Monthly cost" value={formatGBP(u.phoneNumbers.monthlyCost)} />
          <p className="py-1.5 text-xs text-slate-500 dark:text-slate-400">
            ({u.phoneNumbers.count} numbers × {NUMBER_RENTAL_TEXT} each)
          </p>
          <div className="pt-3">
            <Button variant="outline" size="sm" onClick={() => navigate(`/dashboard/${provider}-numbers`)}>
              View All Numbers <ArrowRight className="h-3.5 w-3.5" aria-hidden />
            </Button>
          </div>
        </Panel>
        <Panel title="Recordings" icon={<Mic className="h-4 w-4" aria-hidden />}>
          <Line label="Recordings" value={u.recordings.count} />
          <Line label="Cost" value={formatGBP(u.recordings.price)} />
        </Panel>
        <Panel title="Calls to Owners' Phones" icon={<PhoneOutgoing className="h-4 w-4" aria-hidden />}>
          <Line label="Calls placed" value={u.ownerCalls.attempts} />
          <Line label="Minutes (ringing included)" value={u.ownerCalls.minutes} />
          <Line label="Daily limit per owner" value={`${u.ownerCalls.dailyMinutesCap} min`} />
          {u.ownerCalls.owners.map((o) => (
            <Line key={o.userId} label={`${o.name} (${o.attempts})`} value={`${o.minutes} min`} />
          ))}
        </Panel>
        <Panel title="Texts to Callers" icon={<MessageSquare className="h-4 w-4" aria-hidden />}>
          <Line label="Texts sent" value={u.callerTexts.texts} />
          <Line label="SMS parts" value={u.callerTexts.segments} />
          <Line label="Daily limits (per owner / box)" value={`${u.callerTexts.dailyPerOwnerCap} / ${u.callerTexts.dailyBoxCap}`} />
          <Line label="Owner texts saved by screening" value={u.textsSaved} />
          {u.callerTexts.owners.map((o) => (
            <Line key={o.userId} label={`${o.name} (${o.texts})`} value={`${o.segments} SMS`} />
          ))}
        </Panel>
      </div>

      <SubscriptionsCard />

      <Card>
        <CardHeader title="Total This Month" />
        <div className="divide-y divide-slate-100 px-5 py-3 dark:divide-slate-800">
          <Line label="Calls" value={formatGBP(split.calls)} />
          <Line label="SMS" value={formatGBP(split.sms)} />
          <Line label="Numbers" value={formatGBP(split.numbers)} />
          <Line label="Recordings" value={formatGBP(split.recordings)} />
          <Line label="Total" value={formatGBP(u.totalCost)} strong />
          <Line label="+ monthly numbers" value={formatGBP(u.phoneNumbers.monthlyCost)} />
        </div>
      </Card>
    </>
  );
}

export default function Usage() {
  const meta = useMeta();
  const provider = meta.data?.provider ?? '';
  return provider ? <UsageScreen provider={provider} /> : meta.isError ? <ErrorState title="Error Loading Data" message={messageOr(meta.error, 'Please try again.')} /> : <Spinner label="Loading usage data..." />;
}

function UsageScreen({ provider }: { provider: string }) {
  const q = useUsage(provider);
  const name = capitalise(provider);
  return (
    <>
      <PageHeader
        title="Usage & Costs"
        subtitle="Current month usage and spending"
        actions={
          <Button variant="outline" onClick={() => void q.refetch()} disabled={q.isFetching}>
            <RefreshCw className={cx('h-4 w-4', q.isFetching && 'animate-spin')} aria-hidden /> {q.isFetching && !q.isLoading ? 'Refreshing...' : 'Refresh'}
          </Button>
        }
      />
      {q.isLoading ? (
        <Spinner label="Loading usage data..." />
      ) : q.isError || !q.data ? (
        <Card>
          <ErrorState title="Error Loading Data" message={messageOr(q.error, `Failed to fetch ${name} usage statistics`)} onRetry={() => void q.refetch()} />
        </Card>
      ) : (
        <UsageBody u={q.data} provider={provider} />
      )}
    </>
  );
}
