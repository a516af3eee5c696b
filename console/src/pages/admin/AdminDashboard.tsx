import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Bot, Clock, Trash2, UserCheck, Users, Voicemail } from 'lucide-react';
import type { AccountStatus, ApiUser } from '../../../../contract/api';
import { deleteUser, updateUser } from '../../api/admin';
import { keys } from '../../api/keys';
import { useAdminUsers, useAgentCapacity, useEngines } from '../../api/queries';
import { useAdminLineState } from '../../api/line-state';
import { AccountStatusBadge } from '../../components/StatusBadge';
import { AdminTable, type Column } from '../../components/AdminTable';
import { QueryState } from '../../components/QueryState';
import { Badge, Button, Card, CardHeader, EmptyState, PageHeader, Select, StatCard, Truncate } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { NA, formatDateTime, formatRelative } from '../../lib/format';
import { extendedTrialExpiry } from '../../lib/trial';
import { slotsLine, turnedAwayLine } from '../../lib/agent-capacity';
import { languageModelLine } from '../../lib/language-model';
import { agentGuardLine } from '../../lib/agent-guard';
import { toast } from '../../toast/use-toast';
import QualityCard from './QualityCard';
import SelfTestCard from './SelfTestCard';

const SETTABLE: { value: AccountStatus; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
  { value: 'expired', label: 'Expired' },
];

const deleteConfirmation = (email: string) =>
  `Are you sure you want to permanently delete user "${email}"? This will delete all their call logs and questions. This action cannot be undone.`;

function UserActions({ user }: { user: ApiUser }) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.admin.all });

  const update = useMutation({
    mutationFn: (accountStatus: AccountStatus) => updateUser(user.id, { accountStatus }),
    onSuccess: () => {
      refresh();
      toast({ title: 'User Updated' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Update Failed', description: messageOr(e, 'Failed to update user') }),
  });
  const extend = useMutation({
    mutationFn: () => updateUser(user.id, { trialExpiresAt: extendedTrialExpiry() }),
    onSuccess: () => {
      refresh();
      toast({ title: 'Trial Extended', description: 'User trial has been extended by 7 days.' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Extension Failed', description: messageOr(e, 'Failed to extend trial') }),
  });
  const remove = useMutation({
    mutationFn: () => deleteUser(user.id),
    onSuccess: () => {
      refresh();
      toast({ title: 'User Deleted' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Deletion Failed', description: messageOr(e, 'Failed to delete user') }),
  });

  const settable = SETTABLE.some((s) => s.value === user.accountStatus);
  const label = user.businessName || user.email;
  return (
    <div className="flex items-center justify-end gap-2">
      <Select
        aria-label={`Status of ${label}`}
        className="!h-8 !w-32 !py-0 !pl-2 !pr-6 text-xs"
        value={settable ? user.accountStatus : ''}
        disabled={update.isPending}
        onChange={(e) => e.target.value && update.mutate(e.target.value as AccountStatus)}
      >
        {!settable && <option value="">Set status</option>}
        {SETTABLE.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </Select>
      {user.trialExpiresAt && (
        <Button size="sm" variant="outline" title="Extend trial" aria-label={`+14d: extend trial of ${label}`} disabled={extend.isPending} onClick={() => extend.mutate()}>
          +14d
        </Button>
      )}
      <Button
        size="icon"
        variant="ghost"
        aria-label={`Delete ${label}`}
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm(deleteConfirmation(user.email))) remove.mutate();
        }}
      >
        <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
      </Button>
    </div>
  );
}

/** The language model pulled on first start (issue 60): its download or failure, said until it is ready. */
function LanguageModelNotice() {
  const m = useEngines().data?.languageModel;
  const line = m ? languageModelLine(m, (iso) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })) : null;
  if (!line) return null;
  const failed = m?.state === 'failed';
  return (
    <div role="status" className={`mb-6 rounded-md border p-4 text-sm ${failed ? 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200' : 'border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-200'}`}>
      {line}
    </div>
  );
}

/** This node's slow-box guard (issue 60 item 4): said while agent mode is paused for a slow box. */
function AgentGuardNotice() {
  const g = useEngines().data?.agentGuard;
  const line = g ? agentGuardLine(g, (iso) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })) : null;
  if (!line) return null;
  return (
    <div role="status" className="mb-6 rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-amber-800 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200">
      {line}
    </div>
  );
}

/** Agent mode under load (issue 27): conversations against what the engines serve, and the callers they could not. */
function AgentCapacityCards() {
  const q = useAgentCapacity();
  const c = q.data;
  const figure = <T,>(pick: (d: NonNullable<typeof c>) => T) => (q.isLoading ? undefined : q.isError || !c ? null : pick(c));
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-2">
      <StatCard
        label="Agent Capacity in Use"
        value={figure((d) => `${d.conversations} / ${d.conversationCapacity}`)}
        note={c ? `Conversations. Slots in use: ${slotsLine(c.engines)}` : undefined}
        icon={<Bot className="h-4 w-4" />}
      />
      <StatCard
        label="Turned to Voicemail for Capacity (24h)"
        value={figure((d) => d.voicemailForCapacity.total)}
        note={c ? turnedAwayLine(c.voicemailForCapacity) : undefined}
        icon={<Voicemail className="h-4 w-4" />}
        tone="bg-amber-50 text-amber-600 dark:bg-amber-950 dark:text-amber-300"
      />
    </div>
  );
}

const PART_BADGE = { up: { tone: 'green', label: 'Up' }, down: { tone: 'red', label: 'Down' }, off: { tone: 'gray', label: 'Not set up' } } as const;

/** Whether the box can answer calls now: the phone system, its SIP trunk and each engine, up or down and since when (issue 44). */
function LineStatus() {
  const q = useAdminLineState();
  const parts = q.data ? [q.data.phoneSystem, q.data.trunk, ...q.data.engines] : [];
  return (
    <Card className="mb-6" aria-labelledby="line-status-title">
      <CardHeader title={<span id="line-status-title">Line Status</span>} description="Whether this box can answer calls now. Checked every 15 seconds." />
      <QueryState query={q} loading="Loading line status..." failed="Could not load the line status">
        {() => (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Line status">
            {parts.map((p) => (
              <li key={p.name} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 px-5 py-3 text-sm" data-part={p.name}>
                <div className="min-w-0">
                  <p className="font-semibold">{p.name}</p>
                  <p className="break-words text-slate-600 dark:text-slate-400">{p.detail}</p>
                </div>
                <div className="flex items-center gap-2">
                  <Badge tone={PART_BADGE[p.state].tone}>{PART_BADGE[p.state].label}</Badge>
                  <span className="text-slate-600 dark:text-slate-400">since {formatDateTime(p.since)}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}

// With Actions' 16rem these fill a 1280 px screen beside the sidebar; Role fits "Customer" whole.
const USER_COLUMNS: Column<ApiUser>[] = [
  { label: 'Business Name', head: 'w-[13%]', cell: 'font-medium', value: (u) => <Truncate text={u.businessName || NA} /> },
  { label: 'Email', head: 'w-[18%]', value: (u) => <Truncate text={u.email} /> },
  // "Pending Approval" takes two lines rather than the next column.
  { label: 'Status', head: 'w-[12%]', value: (u) => <AccountStatusBadge status={u.accountStatus} className="!whitespace-normal" /> },
  { label: 'Role', head: 'w-[12%]', value: (u) => <Badge tone={u.role === 'admin' ? 'purple' : 'gray'}>{u.role === 'admin' ? 'Admin' : 'Customer'}</Badge> },
  { label: 'Trial Expires', head: 'w-[9%]', value: (u) => (u.trialExpiresAt ? formatRelative(u.trialExpiresAt) : NA) },
  { label: 'Created', head: 'w-[9%]', value: (u) => formatRelative(u.createdAt) },
  { label: 'Actions', head: 'w-64 text-right', cell: 'whitespace-nowrap', value: (u) => (u.role === 'admin' ? null : <UserActions user={u} />) },
];

export default function AdminDashboard() {
  const q = useAdminUsers();
  const users = q.data?.users ?? [];
  const customers = users.filter((u) => u.role === 'customer');
  const active = customers.filter((u) => u.accountStatus === 'active').length;
  const pending = users.filter((u) => u.accountStatus === 'pending_approval').length;
  // Loading → skeleton (undefined), failed → no figure (null): never a 0 that is not true.
  const figure = (n: number) => (q.isLoading ? undefined : q.isError ? null : n);

  return (
    <>
      <PageHeader title="Admin Dashboard" subtitle="Manage users and monitor system" />
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <StatCard label="Total Customers" value={figure(customers.length)} icon={<Users className="h-4 w-4" />} />
        <StatCard label="Active Users" value={figure(active)} icon={<UserCheck className="h-4 w-4" />} tone="bg-emerald-50 text-emerald-600 dark:bg-emerald-950 dark:text-emerald-300" />
        <StatCard label="Pending Approval" value={figure(pending)} icon={<Clock className="h-4 w-4" />} tone="bg-amber-50 text-amber-600 dark:bg-amber-950 dark:text-amber-300" />
      </div>
      <LineStatus />
      <LanguageModelNotice />
      <AgentGuardNotice />
      <AgentCapacityCards />
      <QualityCard />
      <SelfTestCard />
      <Card>
        <CardHeader title="All Users" />
        <QueryState query={q} loading="Loading users..." failed="Could not load users" empty={users.length === 0 && <EmptyState title="No users found" />}>
          {() => <AdminTable label="All Users" stackBelow="xl" columns={USER_COLUMNS} rows={users} rowKey={(u) => u.id} />}
        </QueryState>
      </Card>
    </>
  );
}
