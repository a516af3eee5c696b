// Notification Settings → Alerts (issue 54): "This device and your other devices". Turns push
// alerts on for this browser (the console's service worker is registered by the PWA's code; this
// only asks it for a subscription), lists every device with its own choices and quiet hours, and
// the owner's "text me only if the alert was not opened within N minutes".
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BellRing, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ApiPushDevice } from '../../../../contract/schemas/push';
import { getPushDevices, getPushKey, removeDevice, saveTextDelay, subscribeDevice, updateDevice } from '../../api/push';
import { keys } from '../../api/keys';
import { Button, Card, CardHeader, ErrorState, Field, Input, Select, Skeleton, Switch } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { applicationServerKey, deviceSummary, pushSupport, suggestedDeviceName, SUPPORT_WORDS, type PushSupport } from '../../lib/push';
import { toast } from '../../toast/use-toast';

const failed = (fallback: string) => (e: unknown) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, fallback) });

/** What this browser can do, read once the page is open (the worker registers asynchronously). */
function useBrowserSupport(): { support: PushSupport | null; endpoint: string | null } {
  const [state, setState] = useState<{ support: PushSupport | null; endpoint: string | null }>({ support: null, endpoint: null });
  useEffect(() => {
    let live = true;
    void (async () => {
      const hasPushApi = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
      const registration = hasPushApi ? await navigator.serviceWorker.getRegistration() : undefined;
      const sub = registration ? await registration.pushManager.getSubscription() : null;
      const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true || window.matchMedia?.('(display-mode: standalone)').matches === true;
      const permission = 'Notification' in window ? Notification.permission : 'unsupported';
      if (live) setState({ support: pushSupport({ userAgent: navigator.userAgent, standalone, hasPushApi, workerRegistered: !!registration, permission }), endpoint: sub?.endpoint ?? null });
    })();
    return () => {
      live = false;
    };
  }, []);
  return state;
}

async function subscribeThisBrowser(): Promise<{ endpoint: string; keys: { p256dh: string; auth: string } }> {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('Notifications were not allowed, so alerts cannot be shown on this device.');
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await getPushKey();
  const sub = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) });
  const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  return { endpoint: json.endpoint, keys: json.keys };
}

function DeviceRow({ device, thisOne }: { device: ApiPushDevice; thisOne: boolean }) {
  const qc = useQueryClient();
  const [name, setName] = useState(device.name);
  const [quietStart, setQuietStart] = useState(device.quietStart ?? '');
  const [quietEnd, setQuietEnd] = useState(device.quietEnd ?? '');
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.pushDevices });
  const update = useMutation({
    mutationFn: (body: Parameters<typeof updateDevice>[1]) => updateDevice(device.id, body),
    onSuccess: (data) => {
      toast({ title: data.message });
      refresh();
    },
    onError: failed('Failed to save the device'),
  });
  const remove = useMutation({
    mutationFn: () => removeDevice(device.id),
    onSuccess: (data) => {
      toast({ title: data.message });
      refresh();
    },
    onError: failed('Failed to remove the device'),
  });
  const quiet = () => update.mutate(quietStart && quietEnd ? { quietStart, quietEnd } : { quietStart: null, quietEnd: null });
  return (
    <li className="grid gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium">
            {device.name} {thisOne && <span className="text-sm font-normal text-slate-500 dark:text-slate-400">(this device)</span>}
          </p>
          <p className="text-sm text-slate-500 dark:text-slate-400">{deviceSummary(device)}</p>
        </div>
        <Button type="button" variant="outline" size="sm" disabled={remove.isPending} onClick={() => remove.mutate()}>
          <Trash2 className="h-4 w-4" aria-hidden /> Remove
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Device name">
          <Input value={name} maxLength={60} onChange={(e) => setName(e.target.value)} onBlur={() => name.trim() && name !== device.name && update.mutate({ name })} />
        </Field>
        <Field label="Calls that alert">
          <Select value={device.calls} onChange={(e) => update.mutate({ calls: e.target.value as ApiPushDevice['calls'] })}>
            <option value="all">Every call</option>
            <option value="urgent">Urgent calls only</option>
            <option value="none">No calls</option>
          </Select>
        </Field>
      </div>
      <div className="flex flex-wrap gap-6">
        {/* The switch carries its own name (with the device's); the words beside it are for the eye. */}
        <div className="flex items-center gap-2 text-sm">
          <Switch checked={device.bookings} label={`Bookings on ${device.name}`} onChange={(v) => update.mutate({ bookings: v })} /> <span aria-hidden>Bookings</span>
        </div>
        <div className="flex items-center gap-2 text-sm">
          <Switch checked={device.callerTexts} label={`Caller texts on ${device.name}`} onChange={(v) => update.mutate({ callerTexts: v })} /> <span aria-hidden>Caller texts</span>
        </div>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Quiet from (UK time)">
          <Input type="time" value={quietStart} onChange={(e) => setQuietStart(e.target.value)} />
        </Field>
        <Field label="Quiet until">
          <Input type="time" value={quietEnd} onChange={(e) => setQuietEnd(e.target.value)} />
        </Field>
        <Button type="button" variant="outline" size="sm" disabled={update.isPending} onClick={quiet}>
          {quietStart && quietEnd ? 'Save Quiet Hours' : 'No Quiet Hours'}
        </Button>
      </div>
    </li>
  );
}

export default function PushDevicesSection() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: keys.pushDevices, queryFn: getPushDevices });
  const { support, endpoint } = useBrowserSupport();
  const [delay, setDelay] = useState<string | null>(null);
  const turnOn = useMutation({
    mutationFn: async () => subscribeDevice({ ...(await subscribeThisBrowser()), name: suggestedDeviceName(navigator.userAgent) }),
    onSuccess: (data) => {
      toast({ title: data.message });
      void qc.invalidateQueries({ queryKey: keys.pushDevices });
    },
    onError: failed('Failed to turn alerts on'),
  });
  const textDelay = useMutation({
    mutationFn: saveTextDelay,
    onSuccess: (data) => {
      toast({ title: data.message });
      void qc.invalidateQueries({ queryKey: keys.pushDevices });
    },
    onError: failed('Failed to save'),
  });
  const delayValue = delay ?? (query.data?.textDelayMinutes ? String(query.data.textDelayMinutes) : '');
  const subscribedHere = !!endpoint && !!query.data?.devices.some((d) => d.endpoint === endpoint);

  return (
    <Card aria-labelledby="push-title">
      <CardHeader
        title={
          <span id="push-title" className="flex items-center gap-2">
            <BellRing className="h-5 w-5 text-indigo-600 dark:text-indigo-400" aria-hidden /> This device and your other devices
          </span>
        }
        description="Alerts on your phone's lock screen when a call, a booking or a caller's text comes in, with Call back, Mark done and Reply"
      />
      <div className="grid gap-5 p-5">
        {support && support !== 'ready' ? (
          <p role="status" className="text-sm text-amber-700 dark:text-amber-400">{SUPPORT_WORDS[support]}</p>
        ) : support === 'ready' && !subscribedHere ? (
          <div>
            <Button type="button" disabled={turnOn.isPending} onClick={() => turnOn.mutate()}>
              {turnOn.isPending ? 'Turning on...' : 'Turn on alerts on this device'}
            </Button>
          </div>
        ) : null}
        {query.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : query.isError ? (
          <ErrorState title="Could not load your devices" message={messageOr(query.error, 'Failed to load your devices')} onRetry={() => void query.refetch()} />
        ) : (
          <>
            {query.data.devices.length === 0 ? (
              <p className="text-sm text-slate-500 dark:text-slate-400">No device gets alerts yet.</p>
            ) : (
              <ul className="grid gap-3" aria-label="Devices with alerts">
                {query.data.devices.map((d) => (
                  <DeviceRow key={`${d.id}-${d.quietStart}-${d.quietEnd}-${d.name}`} device={d} thisOne={d.endpoint === endpoint} />
                ))}
              </ul>
            )}
            <form
              className="flex flex-wrap items-end gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                textDelay.mutate(delayValue.trim() ? Number(delayValue) : null);
              }}
            >
              <Field label="Text me only if the alert was not opened within (minutes)" hint="Leave empty to be texted as soon as a call is summarised, as now.">
                <Input type="number" min={1} max={60} inputMode="numeric" value={delayValue} onChange={(e) => setDelay(e.target.value)} />
              </Field>
              <Button type="submit" variant="outline" disabled={textDelay.isPending}>
                Save
              </Button>
            </form>
          </>
        )}
      </div>
    </Card>
  );
}
