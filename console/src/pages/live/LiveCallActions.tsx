import { useState } from 'react';
import { endLiveCall } from '../../api/live-control';
import { Button } from '../../components/ui';
import { ListenTakeOver } from './ListenTakeOver';

// A live call's buttons: Listen and Take over (ListenTakeOver), then End call.

export function LiveCallActions({ callId, mode }: { callId: number; mode: string }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const end = async () => {
    setBusy(true);
    setError(null);
    const res = await endLiveCall(callId).catch(() => ({ status: 0, body: { message: 'The box could not be reached. Try again.' } }));
    setBusy(false);
    setConfirming(false);
    // Success shows as the call leaving the list (call-ended).
    if (res.status !== 200) setError(res.body.message);
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <ListenTakeOver callId={callId} mode={mode} />
      {confirming ? (
        <>
          <span className="text-sm">End this call? The caller is hung up.</span>
          <Button variant="danger" size="sm" disabled={busy} onClick={() => void end()}>
            Yes, end call
          </Button>
          <Button variant="outline" size="sm" disabled={busy} onClick={() => setConfirming(false)}>
            Keep it
          </Button>
        </>
      ) : (
        <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
          End call
        </Button>
      )}
      {error && (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
