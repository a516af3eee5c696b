// Two-way CalDAV (iCloud, Nextcloud, Fastmail, Radicale, Baïkal): connect with the address, user
// and an app password; Test connection says in plain words what is wrong. The password is sent,
// never shown again: a connected calendar shows its address and user only.
import { useState, type FormEvent } from 'react';
import type { ApiBookingCalendar, ApiCalDavTest } from '../../../../contract/schemas/booking';
import { testCalDav } from '../../api/booking';
import { Button, Card, CardHeader, Field, Input, cx } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { OWNER_CALENDAR, type CalendarRequests } from './calendar-requests';
import { Confirm } from './Confirm';

export function CalDavCard({ cal, onSaved, defaultAddress = '', requests = OWNER_CALENDAR }: { cal: ApiBookingCalendar; onSaved: (c: ApiBookingCalendar) => void; defaultAddress?: string; requests?: CalendarRequests }) {
  const [address, setAddress] = useState(defaultAddress);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [result, setResult] = useState<ApiCalDavTest | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const body = () => ({ address, username, password });
  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      await what();
    } catch (e) {
      setError(messageOr(e, 'Could not reach the box; please try again'));
    } finally {
      setBusy(false);
    }
  };
  const onTest = () => void run(async () => setResult(await testCalDav(body())));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      onSaved(await requests.connectCalDav(body()));
      setPassword('');
      toast({ title: 'Calendar connected' });
    });
  };
  return (
    <Card aria-labelledby="caldav-title">
      <CardHeader
        title={<span id="caldav-title">CalDAV calendar (two-way)</span>}
        description="iCloud, Nextcloud, Fastmail, Radicale or Baïkal: busy times are read from it and each booking is written into it. Use an app password, not your main one."
      />
      {cal.caldav ? (
        <div className="grid gap-4 p-5">
          {/* A team member's calendar is known only by its kind until it is saved here (the team list sends no address). */}
          {cal.caldav.url ? (
            <dl className="grid gap-1 text-sm">
              <div className="flex flex-wrap gap-x-2"><dt className="font-medium">Connected to</dt><dd className="min-w-0 break-all">{cal.caldav.url}</dd></div>
              <div className="flex flex-wrap gap-x-2"><dt className="font-medium">As</dt><dd className="min-w-0 break-all">{cal.caldav.username}</dd></div>
            </dl>
          ) : (
            <p className="text-sm">Connected.</p>
          )}
          <div>
            <Button variant="outline" onClick={() => setConfirming(true)}>Disconnect</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={onSubmit} className="grid gap-4 p-5">
          <Field label="CalDAV address" hint="e.g. https://caldav.icloud.com/ or your Nextcloud calendar's primary CalDAV address">
            <Input type="url" inputMode="url" autoComplete="off" required value={address} onChange={(e) => setAddress(e.target.value)} />
          </Field>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field label="User name">
              <Input autoComplete="off" required value={username} onChange={(e) => setUsername(e.target.value)} />
            </Field>
            <Field label="App password">
              <Input type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
          </div>
          <div aria-live="polite">
            {result && (
              <p className={cx('rounded-md p-3 text-sm', result.ok ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-200')}>
                {result.message}
              </p>
            )}
            {error && <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">{error}</p>}
          </div>
          <div className="flex flex-wrap gap-3">
            <Button variant="outline" disabled={busy || !address || !username || !password} onClick={onTest}>Test connection</Button>
            <Button type="submit" disabled={busy}>Connect calendar</Button>
          </div>
        </form>
      )}
      <Confirm
        open={confirming}
        title="Disconnect this calendar?"
        description="Its busy times stop blocking bookings and new bookings are no longer written into it. Events already there stay."
        confirmLabel="Disconnect"
        keepLabel="Stay connected"
        onConfirm={async () => {
          onSaved(await requests.disconnectCalDav());
          toast({ title: 'Calendar disconnected' });
        }}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
