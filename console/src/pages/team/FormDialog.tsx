// A dialog around one team form: its submit runs the request, a refusal's message (the
// server's own sentence) stays on show in the dialog, and success closes it.
import { useState, type FormEvent, type ReactNode } from 'react';
import { Dialog } from '../../components/Dialog';
import { Button } from '../../components/ui';
import { messageOr } from '../../lib/errors';

export function FormDialog({ open, title, description, submitLabel, onSubmit, onClose, children, extra }: {
  open: boolean;
  title: string;
  description?: ReactNode;
  submitLabel: string;
  /** Resolves when done (true keeps the dialog open for a next step); a rejection's message is shown. */
  onSubmit: () => Promise<boolean | void>;
  onClose: () => void;
  children: ReactNode;
  /** Buttons beside Cancel (Revoke, Send a new code). */
  extra?: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if ((await onSubmit()) !== true) close();
    } catch (err) {
      setError(messageOr(err, `Could not ${submitLabel.toLowerCase()}; please try again`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} title={title} description={description} size="lg">
      <form className="grid gap-4" onSubmit={(e) => void submit(e)} noValidate>
        {children}
        {error && <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">{error}</p>}
        <div className="flex flex-col-reverse flex-wrap gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={close}>Cancel</Button>
          {extra}
          <Button type="submit" disabled={busy}>{submitLabel}</Button>
        </div>
      </form>
    </Dialog>
  );
}
