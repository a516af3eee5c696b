import { Copy } from 'lucide-react';
import { Button } from '../../components/ui';
import { toast } from '../../toast/use-toast';

const COPY_TOAST_MS = 2000;

/** SPEC's copy action: "Copied!" for 2 seconds, or how to do it by hand. */
export async function copy(text: string, label: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied!', description: `${label} copied to clipboard`, duration: COPY_TOAST_MS });
  } catch {
    toast({ variant: 'destructive', title: 'Copy failed', description: 'Please copy the code manually' });
  }
}

/** A code in monospace with its copy button. */
export function CopyCode({ label, code }: { label: string; code: string }) {
  return (
    <span className="flex items-center gap-1">
      {/* Wraps, when it must, only after a * that starts a field (the service code, the number, the delay), never inside the number. */}
      <code className="rounded bg-slate-100 px-2 py-1 font-mono text-sm break-normal dark:bg-slate-800">
        {code.split(/(?<=\*)(?=[+\d])/).map((part, i) => (
          <span key={i} className="whitespace-nowrap">
            {part}
            <wbr />
          </span>
        ))}
      </code>
      <Button size="icon" variant="ghost" aria-label={`Copy ${label}`} onClick={() => void copy(code, label)}>
        <Copy className="h-4 w-4" aria-hidden />
      </Button>
    </span>
  );
}

export function CodeRow({ label, code }: { label: string; code: string }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
      <span className="text-sm">{label}</span>
      <CopyCode label={label} code={code} />
    </li>
  );
}
