import { CheckCircle2, Clock } from 'lucide-react';
import { Card } from '../../components/ui';
import { depositReturnWords, type DepositReturn as Kind } from './deposit-return-words';

/** A caller's page after Stripe Checkout: plain words, no login, nothing asked of the server. */
export default function DepositReturn({ kind }: { kind: Kind }) {
  const words = depositReturnWords(kind);
  const Icon = kind === 'thanks' ? CheckCircle2 : Clock;
  return (
    <main className="flex min-h-[60vh] w-full items-center justify-center p-4">
      <Card className="w-full max-w-md p-6" data-testid={`deposit-${kind}`}>
        <div className="mb-3 flex items-center gap-2">
          <Icon className={kind === 'thanks' ? 'h-8 w-8 text-green-600' : 'h-8 w-8 text-amber-600'} aria-hidden />
          <h1 className="text-2xl font-bold">{words.title}</h1>
        </div>
        <p className="text-base text-slate-700 dark:text-slate-300">{words.text}</p>
      </Card>
    </main>
  );
}
