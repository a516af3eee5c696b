// The team's members, owner first: who they are, what reaches them, and a button per thing the
// owner changes; adding someone; removing them (asked first; the server's refusal shown as sent).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { addMember, removeMember, type ApiTeam, type ApiTeamMember } from '../../api/team';
import { Badge, Button, Card, CardHeader } from '../../components/ui';
import { formatPhone } from '../../lib/format';
import { toast } from '../../toast/use-toast';
import { Confirm } from '../booking/Confirm';
import { FormDialog } from './FormDialog';
import { EditMemberDialog, HoursDialog, INVITE_STATE, InviteDialog, PhoneDialog, ServicesDialog } from './MemberDialogs';
import { CALENDAR_KIND, CalendarDialog } from './MemberCalendar';
import { EMPTY_DRAFT, MemberFields, shapeOf } from './MemberFields';

type Action = 'edit' | 'hours' | 'services' | 'phone' | 'calendar' | 'invite' | 'remove';
const DIALOGS = { edit: EditMemberDialog, hours: HoursDialog, services: ServicesDialog, phone: PhoneDialog, calendar: CalendarDialog, invite: InviteDialog } as const;

/** The name the owner's member has until they give theirs (users have no personal name). */
const UNNAMED_OWNER = 'Owner';

function MemberRow({ m, onAction }: { m: ApiTeamMember; onAction: (a: Action) => void }) {
  const button = (a: Action, label: string) => (
    <Button size="sm" variant="outline" aria-label={`${label}: ${m.name}`} onClick={() => onAction(a)}>
      {label}
    </Button>
  );
  return (
    <li className="min-w-0 rounded-lg border border-slate-200 p-4 dark:border-slate-800" aria-label={m.name}>
      <div className="flex flex-wrap items-center gap-2">
        <p className="break-words font-semibold">{m.name}</p>
        {m.roleWord && <Badge tone="indigo">{m.roleWord}</Badge>}
        {m.isOwner ? <Badge tone="gray">Owner</Badge> : <Badge tone={m.invite.state === 'active' ? 'green' : m.invite.state === 'invited' ? 'amber' : 'gray'}>{INVITE_STATE[m.invite.state]}</Badge>}
      </div>
      {m.isOwner && m.name === UNNAMED_OWNER && (
        // The agent puts callers through to whoever they ask for by name: "Owner" is nobody's.
        <div className="mt-2 flex flex-wrap items-center gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-100">
          <p className="min-w-0 flex-1 basis-48">Add your name, so callers who ask for you by name are put through to you.</p>
          <Button size="sm" onClick={() => onAction('edit')}>Add your name</Button>
        </div>
      )}
      <dl className="mt-2 grid gap-1 text-sm text-slate-600 dark:text-slate-400">
        {m.otherNames.length > 0 && <div className="break-words"><dt className="inline">Also called: </dt><dd className="inline">{m.otherNames.join(', ')}</dd></div>}
        <div><dt className="inline">Phone: </dt><dd className="inline">{m.phone ? formatPhone(m.phone) : m.pendingPhone ? `${formatPhone(m.pendingPhone)} (waiting for its code)` : 'None yet'}</dd></div>
        <div><dt className="inline">Hours: </dt><dd className="inline">{m.hours ? 'Their own' : "The business's opening hours"}</dd></div>
        <div><dt className="inline">Services: </dt><dd className="inline">{m.services.length === 0 ? 'None' : m.services.length === 1 ? '1 service' : `${m.services.length} services`}</dd></div>
        <div>
          <dt className="inline">Calendar: </dt>
          {/* The owner's calendar is the business's, set under Bookings; the member row has none of its own. */}
          <dd className="inline">{m.isOwner ? <Link to="/dashboard/bookings?tab=calendar" className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300">Yours, under Bookings</Link> : CALENDAR_KIND[m.calendar]}</dd>
        </div>
        {!m.isOwner && <div><dt className="inline">Sees: </dt><dd className="inline">{m.view === 'everything' ? 'Everything' : 'Their own'}</dd></div>}
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        {button('edit', 'Edit')}
        {button('hours', 'Hours')}
        {button('services', 'Services')}
        {button('phone', 'Phone')}
        {!m.isOwner && button('calendar', 'Calendar')}
        {!m.isOwner && button('invite', m.invite.state === 'none' ? 'Invite' : 'Sign-in')}
        {!m.isOwner && button('remove', 'Remove')}
      </div>
    </li>
  );
}

export function MemberList({ team, refresh }: { team: ApiTeam; refresh: () => Promise<unknown> }) {
  const [open, setOpen] = useState<{ id: number; action: Action } | null>(null);
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const member = open && team.members.find((m) => m.id === open.id);
  const staffCount = team.members.filter((m) => !m.isOwner).length;
  const Open = member && open.action !== 'remove' ? DIALOGS[open.action] : null;
  return (
    <Card aria-labelledby="members-title">
      <CardHeader
        title={<span id="members-title">People</span>}
        description={`${staffCount} of ${team.maxStaff} people besides you`}
        action={<Button size="sm" onClick={() => setAdding(true)}>Add a person</Button>}
      />
      <ul className="grid grid-cols-1 gap-3 p-5 lg:grid-cols-2" aria-label="Team members">
        {team.members.map((m) => <MemberRow key={m.id} m={m} onAction={(action) => setOpen({ id: m.id, action })} />)}
      </ul>
      {member && Open && <Open member={member} onSaved={refresh} onClose={() => setOpen(null)} />}
      <Confirm
        open={Boolean(member && open?.action === 'remove')}
        title={`Remove ${member ? member.name : 'this person'}?`}
        description="Calls are no longer put through to them and they can no longer sign in. Their past calls and bookings stay, under their name."
        confirmLabel="Remove"
        onConfirm={async () => {
          const res = await removeMember(member!.id);
          toast({ title: res.message });
          await refresh();
        }}
        onClose={() => setOpen(null)}
      />
      <FormDialog
        open={adding}
        title="Add a person"
        submitLabel="Add"
        onClose={() => {
          setAdding(false);
          setDraft(EMPTY_DRAFT);
        }}
        onSubmit={async () => {
          const { member: added } = await addMember(shapeOf(draft));
          toast({ title: `${added.name} added`, description: 'Set their hours, services and phone next.' });
          setDraft(EMPTY_DRAFT);
          await refresh();
        }}
      >
        <MemberFields draft={draft} onChange={setDraft} />
      </FormDialog>
    </Card>
  );
}
