// Asks before an action that cannot be taken back (cancel a booking, archive a service, replace
// the feed address, disconnect the calendar); the server's refusal is shown in the dialog.
import { useState, type ReactNode } from 'react';
import { Dialog } from '../../components/Dialog';
import { Button } from '../../components/ui';
import { messageOr } from '../../lib/errors';

export function Confirm({ open, title, description, confirmLabel, keepLabel = 'Keep it', onConfirm, onClose }: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  keepLabel?: string;
  /** Resolves when done (the dialog closes); a rejection's message stays on show. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      close();
    } catch (e) {
      setError(messageOr(e, `Could not ${confirmLabel.toLowerCase()}; please try again`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} title={title} description={description}>
      {error && <p role="alert" className="mb-4 text-sm font-medium text-red-600 dark:text-red-400">{error}</p>}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={close}>{keepLabel}</Button>
        <Button variant="danger" disabled={busy} onClick={() => void confirm()}>{confirmLabel}</Button>
      </div>
    </Dialog>
  );
}
