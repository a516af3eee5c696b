// What the owner changes about one member, each in its own dialog: details, hours, services,
// phone (confirmed by a texted code) and the e-mail invitation to sign in.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getServices } from '../../api/booking';
import { keys } from '../../api/keys';
import { confirmPhone, inviteMember, revokeInvite, saveMember, saveMemberServices, sendPhoneCode, type ApiTeamMember, type TeamWeek } from '../../api/team';
import { HoursTable } from '../../components/HoursTable';
import { SwitchRow } from '../../components/SwitchRow';
import { Badge, Button, Field, Input, Skeleton } from '../../components/ui';
import { fieldErrors, messageOr } from '../../lib/errors';
import { isUkLandline } from '../../../../contract/phone-display';
import { formatPhone } from '../../lib/format';
import { ownLength } from '../../lib/team';
import { toast } from '../../toast/use-toast';
import { FormDialog } from './FormDialog';
import { MemberFields, draftOf, shapeOf } from './MemberFields';

interface Props {
  member: ApiTeamMember;
  onClose: () => void;
  onSaved: () => Promise<unknown>;
}

export function EditMemberDialog({ member, onClose, onSaved }: Props) {
  const [draft, setDraft] = useState(() => draftOf(member));
  return (
    <FormDialog
      open
      title={`Edit ${member.name}`}
      submitLabel="Save"
      onClose={onClose}
      onSubmit={async () => {
        await saveMember(member.id, shapeOf(draft));
        toast({ title: `${draft.name.trim()} saved` });
        await onSaved();
      }}
    >
      <MemberFields draft={draft} onChange={setDraft} isOwner={member.isOwner} />
    </FormDialog>
  );
}

export function HoursDialog({ member, onClose, onSaved }: Props) {
  const [own, setOwn] = useState(member.hours !== null);
  const [hours, setHours] = useState<TeamWeek>(member.hours ?? { mon: [{ open: '09:00', close: '17:30' }], tue: [{ open: '09:00', close: '17:30' }], wed: [{ open: '09:00', close: '17:30' }], thu: [{ open: '09:00', close: '17:30' }], fri: [{ open: '09:00', close: '17:30' }] });
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <FormDialog
      open
      title={`${member.name}'s hours`}
      description="Calls and bookings reach them only within these hours (London time; the business's bank holidays are days off)."
      submitLabel="Save hours"
      onClose={onClose}
      onSubmit={async () => {
        try {
          await saveMember(member.id, { hours: own ? hours : null });
        } catch (e) {
          setErrors(fieldErrors(e));
          throw e;
        }
        toast({ title: `${member.name}'s hours saved` });
        await onSaved();
      }}
    >
      <SwitchRow label="Own working hours" text="Off: they work the business's opening hours." checked={own} onChange={setOwn} />
      {own && <HoursTable hours={hours} onChange={setHours} errors={errors} label={`${member.name}'s working hours`} />}
    </FormDialog>
  );
}

export function ServicesDialog({ member, onClose, onSaved }: Props) {
  const services = useQuery({ queryKey: keys.booking.services, queryFn: getServices });
  // Service id → the own length as typed ('' = the service's own); absent = does not do it.
  const [chosen, setChosen] = useState<Record<number, string>>(() => Object.fromEntries(member.services.map((s) => [s.serviceId, s.durationMinutes === null ? '' : String(s.durationMinutes)])));
  const list = services.data?.services;
  return (
    <FormDialog
      open
      title={`What ${member.name} does`}
      description="Callers are offered times with the people who do the service. Leave the length empty to use the service's own."
      submitLabel="Save services"
      onClose={onClose}
      onSubmit={async () => {
        await saveMemberServices(member.id, Object.entries(chosen).map(([id, len]) => ({ serviceId: Number(id), durationMinutes: ownLength(len) })));
        toast({ title: `${member.name}'s services saved` });
        await onSaved();
      }}
    >
      {!list ? (
        <Skeleton className="h-16 w-full" />
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No services yet: add them on Bookings, under Services and hours.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Services">
          {list.map((s) => {
            const on = s.id in chosen;
            return (
              <li key={s.id} className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[minmax(0,1fr)_10rem] sm:items-center dark:border-slate-800">
                <label className="flex min-w-0 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-indigo-600"
                    checked={on}
                    onChange={(e) => setChosen(({ [s.id]: _dropped, ...rest }) => (e.target.checked ? { ...rest, [s.id]: '' } : rest))}
                  />
                  <span className="break-words">{s.name}</span>
                </label>
                {on && (
                  <Input
                    type="number"
                    inputMode="numeric"
                    min={1}
                    aria-label={`${member.name}'s length for ${s.name}, in minutes`}
                    placeholder={`${s.durationMinutes} minutes`}
                    value={chosen[s.id]}
                    onChange={(e) => setChosen((c) => ({ ...c, [s.id]: e.target.value }))}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </FormDialog>
  );
}

export function PhoneDialog({ member, onClose, onSaved }: Props) {
  const [phone, setPhone] = useState(member.pendingPhone ?? '');
  // A code is waiting once one has been sent (now or before the dialog opened).
  const [codeSent, setCodeSent] = useState(member.pendingPhone !== null);
  const [code, setCode] = useState('');
  const send = async () => {
    const res = await sendPhoneCode(member.id, phone);
    toast({ title: res.message });
    setCodeSent(true);
    await onSaved();
    return true;
  };
  return (
    <FormDialog
      open
      title={`${member.name}'s phone`}
      description={member.phone ? `Calls are put through to ${formatPhone(member.phone)}. A new number takes over once its code is entered.` : 'The number calls are put through to: a UK mobile or landline. We text it a code to confirm it.'}
      submitLabel={codeSent ? 'Confirm code' : 'Send code'}
      onClose={onClose}
      extra={codeSent && <Button variant="outline" onClick={() => setCodeSent(false)}>Change number</Button>}
      onSubmit={async () => {
        if (!codeSent) return send();
        await confirmPhone(member.id, code.trim());
        toast({ title: `${member.name}'s phone confirmed` });
        await onSaved();
      }}
    >
      {codeSent ? (
        <Field label="Code" hint={isUkLandline(phone) ? `The 6-digit code our call to ${formatPhone(phone)} reads out` : `The 6-digit code we texted to ${formatPhone(phone)}`}>
          <Input value={code} inputMode="numeric" autoComplete="one-time-code" maxLength={6} onChange={(e) => setCode(e.target.value)} />
        </Field>
      ) : (
        <Field label="Phone number" hint="For example 07700 900123. A mobile gets its code by text; a landline, by a short automated call that reads it out.">
          <Input type="tel" value={phone} autoComplete="off" onChange={(e) => setPhone(e.target.value)} />
        </Field>
      )}
    </FormDialog>
  );
}

export const INVITE_STATE: Record<ApiTeamMember['invite']['state'], string> = { none: 'No sign-in', invited: 'Invited', active: 'Active' };

export function InviteDialog({ member, onClose, onSaved }: Props) {
  const [email, setEmail] = useState(member.invite.email ?? '');
  const state = member.invite.state;
  return (
    <FormDialog
      open
      title={`${member.name}'s sign-in`}
      description={state === 'none' ? 'We e-mail them a link to set a password. They see what you chose under "What their sign-in shows".' : undefined}
      submitLabel={state === 'none' ? 'Send invitation' : 'Send again'}
      onClose={onClose}
      extra={
        state !== 'none' && (
          <Button
            variant="danger"
            onClick={() =>
              void revokeInvite(member.id)
                .then(async (res) => {
                  toast({ title: res?.message ?? `${member.name} can no longer sign in` });
                  await onSaved();
                  onClose();
                })
                .catch((e: unknown) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Could not revoke the sign-in; please try again') }))
            }
          >
            Revoke
          </Button>
        )
      }
      onSubmit={async () => {
        const res = await inviteMember(member.id, email.trim());
        toast({ title: res.message });
        await onSaved();
      }}
    >
      {state !== 'none' && (
        <p className="text-sm">
          <Badge tone={state === 'active' ? 'green' : 'amber'}>{INVITE_STATE[state]}</Badge> {member.invite.email}
        </p>
      )}
      <Field label="E-mail">
        <Input type="email" value={email} autoComplete="off" onChange={(e) => setEmail(e.target.value)} />
      </Field>
    </FormDialog>
  );
}
