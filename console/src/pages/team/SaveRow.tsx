// The foot of a team settings card: the server's refusal, if any, then the card's save button.
import { Button } from '../../components/ui';

export function SaveRow({ error, busy, label, onSave }: { error: string | null; busy: boolean; label: string; onSave: () => void }) {
  return (
    <>
      {error && <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">{error}</p>}
      <div className="flex justify-end">
        <Button disabled={busy} onClick={onSave}>{label}</Button>
      </div>
    </>
  );
}
