import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Circle } from 'lucide-react';
import { useState } from 'react';
import { destinationsKey, getPendingDestinations } from '../../api/destinations';
import { Link } from 'react-router-dom';
import { usePhoneNumbers } from '../../api/queries';
import { useSession } from '../../api/session';
import { Button, Card, CardHeader, cx } from '../../components/ui';
import { accountBanner, lineNotAnswering } from '../../lib/account-state';
import { firstRunSteps, showFirstRun, textsLandline, type StepId } from '../../lib/first-run';
import { formatPhone } from '../../lib/format';
import { SECTION_PARAM } from '../notifications/sections';
import { lineCodes } from '../../../../contract/forwarding-codes';
import { useLineType } from '../../lib/line-type';
import { useTeam } from '../../api/team';

/** The me response's people-at-sign-up (issue 58), read optionally: an older server has none. */
type WithTeamSize = { teamSize?: number | null };

const hiddenKey = (userId: number) => `first-run-hidden-${userId}`;

/** Get a number, forward the line, test it, choose how calls are answered: shown to a new owner until the first call (or hidden). */
export function FirstRunChecklist({ hasCalls }: { hasCalls: boolean }) {
  const { user } = useSession();
  const numbers = usePhoneNumbers();
  const pendingSms = useQuery({ queryKey: destinationsKey, queryFn: getPendingDestinations, enabled: user?.role === 'customer' }).data?.pending.find((p) => p.kind === 'sms');
  const [hidden, setHidden] = useState(() => (user ? localStorage.getItem(hiddenKey(user.id)) === '1' : true));
  const [lineType, linePicked] = useLineType();
  const teamSize = (user as (typeof user & WithTeamSize) | null)?.teamSize ?? null;
  // The team is read only for a business that said it is more than one person.
  const team = useTeam({ enabled: user?.role === 'customer' && (teamSize ?? 0) > 1 });
  if (!user || user.role !== 'customer' || hidden || !showFirstRun({ hasCalls, lineNotAnswering: lineNotAnswering(accountBanner(user)) }) || !numbers.data) return null;

  const number = numbers.data.numbers[0]?.phoneNumber;
  // The code for the owner's own kind of line (Phone Numbers' picker): "when unanswered" where the line has it.
  const line = lineCodes(lineType, number ?? '');
  const firstCode = line.rows.find((r) => r.label.startsWith('When unanswered')) ?? line.rows[0]!;
  const textsConfirmed = Boolean(user.notificationNumber) || (!user.smsEnabled && !user.whatsappEnabled);
  const landline = textsLandline(user, Boolean(pendingSms));
  const steps = firstRunSteps({ textsConfirmed, textsOnLandline: Boolean(landline), hasNumber: Boolean(number), hasCalls, aiMode: user.aiMode, callGreeting: user.callGreeting, teamSize, hasTeam: (team.data?.members.length ?? 0) > 1 });
  if (steps.every((s) => s.done)) return null;
  const doneCount = steps.filter((s) => s.done).length;

  // Delivery: the number's field, with the code box under it.
  const deliveryLink = (text: string) => (
    <Link className="font-medium text-indigo-700 underline dark:text-indigo-300" to={`/dashboard/notifications?${SECTION_PARAM}=delivery`}>
      {text}
    </Link>
  );
  const detail: Record<StepId, React.ReactNode> = {
    // The code texted at approval lasts 30 minutes: once it has gone, saving the number sends another.
    texts: pendingSms ? (
      <>
        Nothing is texted to you until you enter the code we sent to {formatPhone(pendingSms.destination)}. {deliveryLink('Enter it in Notification Settings')}
      </>
    ) : landline ? (
      <>
        {formatPhone(landline)}, the number you signed up with, is a landline, and landlines cannot receive texts. Add the mobile you want call texts on. {deliveryLink('Open Notification Settings')}
      </>
    ) : (
      <>
        Nothing is texted to you until your number is confirmed: save your mobile and enter the code we text it. {deliveryLink('Open Notification Settings')}
      </>
    ),
    number: number ? (
      <>Your number is {formatPhone(number)}.</>
    ) : (
      <>
        <Link className="font-medium text-indigo-700 underline dark:text-indigo-300" to="/dashboard/phone-numbers">
          Get your UK number
        </Link>{' '}
        on Phone Numbers.
      </>
    ),
    forwarding: number ? (
      <>
        On your {line.name.replace(/^Mobile$/, 'mobile')} dial <code className="whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 font-mono dark:bg-slate-800">{firstCode.set}</code> to forward{' '}
        {firstCode.label.toLowerCase().replace(/^when /, 'calls when ').replace(/^all calls$/, 'all calls')}.{' '}
        <Link className="font-medium text-indigo-700 underline dark:text-indigo-300" to="/dashboard/phone-numbers">
          {linePicked ? 'All forwarding codes' : 'Another kind of line? Choose it on Phone Numbers'}
        </Link>
      </>
    ) : (
      'Once you have a number, forward your business line to it.'
    ),
    'call-from-phone': 'Ring your business line from another phone and let it ring out: the call appears here.',
    team: (
      <>
        Add the people callers ask for, with their hours and phones.{' '}
        <Link className="font-medium text-indigo-700 underline dark:text-indigo-300" to="/dashboard/team">
          Open Team
        </Link>
      </>
    ),
    mode: (
      <>
        {user.aiMode === 'agent' ? 'Your AI agent answers calls.' : 'Calls go to voicemail with the standard greeting.'}{' '}
        <Link className="font-medium text-indigo-700 underline dark:text-indigo-300" to="/dashboard/notifications">
          Choose in Notification Settings
        </Link>
      </>
    ),
  };

  return (
    <Card className="mb-6" aria-labelledby="first-run-title">
      <CardHeader
        title={<span id="first-run-title">Get your line answering</span>}
        description={`${doneCount} of ${steps.length} done`}
        action={
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              localStorage.setItem(hiddenKey(user.id), '1');
              setHidden(true);
            }}
          >
            Hide
          </Button>
        }
      />
      <ol className="grid gap-4 p-5" aria-label="Set-up steps">
        {steps.map((s) => (
          <li key={s.id} className="flex gap-3" data-done={s.done}>
            {s.done ? (
              <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden />
            ) : (
              <Circle className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
            )}
            <div className="min-w-0 text-sm">
              <p className={cx('font-semibold', s.done && 'text-slate-600 line-through dark:text-slate-400')}>
                {s.label}
                <span className="sr-only">{s.done ? ' (done)' : ' (to do)'}</span>
              </p>
              {!s.done && <p className="mt-0.5 text-slate-600 dark:text-slate-400">{detail[s.id]}</p>}
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}
