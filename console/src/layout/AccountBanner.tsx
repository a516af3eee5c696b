import { AlertTriangle, Clock } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useBilling } from '../api/payments';
import { useMeta, useSession } from '../api/session';
import { cx } from '../components/ui';
import { accountBanner, lineNotAnswering, type AccountBanner as Banner } from '../lib/account-state';
import { dashboardBanner } from '../lib/dashboard-banner';
import { formatDate } from '../lib/format';

function text(b: Banner): { title: string; body: string } {
  switch (b.kind) {
    case 'trial-ending':
      return {
        title: `Your free trial ends in ${b.days} ${b.days === 1 ? 'day' : 'days'}`,
        body: `After ${formatDate(b.trialExpiresAt)} your line stops answering calls. To keep it answering, contact`,
      };
    case 'trial-over':
      return { title: 'Your line is not answering calls', body: 'Your free trial has ended. To upgrade or extend it, contact' };
    case 'expired':
      return { title: 'Your line is not answering calls', body: 'Your account has expired. To reactivate it, contact' };
    case 'suspended':
      return { title: 'Your line is not answering calls', body: 'Your account is suspended. To restore it, contact' };
  }
}

const tone = (urgent: boolean) =>
  cx(
    'mb-6 flex gap-3 rounded-xl border p-4 text-sm',
    urgent
      ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100'
      : 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100',
  );

/** The server's words for the plan (BILLING=stripe, issue 59); the card is added on Account Settings. */
function BillingBanner({ text, urgent }: { text: string; urgent: boolean }) {
  const Icon = urgent ? AlertTriangle : Clock;
  return (
    <div role={urgent ? 'alert' : 'status'} data-testid="billing-banner" className={tone(urgent)}>
      <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <p className="min-w-0">
        <span className="font-semibold">{/[.!?]$/.test(text) ? text : `${text}.`}</span>{' '}
        <Link to="/dashboard/account" className="font-medium underline">
          Account Settings
        </Link>
      </p>
    </div>
  );
}

/** Shown above every dashboard page while the account needs the owner's attention. */
export function AccountBanner() {
  const { user } = useSession();
  const meta = useMeta();
  const billing = useBilling();
  const shown = dashboardBanner(user ? accountBanner(user) : null, billing.data);
  if (!shown) return null;
  if (shown.kind === 'billing') return <BillingBanner text={shown.text} urgent={shown.urgent} />;
  const banner = shown.banner;
  const { title, body } = text(banner);
  const urgent = lineNotAnswering(banner);
  const Icon = urgent ? AlertTriangle : Clock;
  const contact = meta.data?.helpContact;
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      data-testid="account-banner"
      className={tone(urgent)}
    >
      <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p className="font-semibold">{title}</p>
        <p className="mt-0.5">
          {body}{' '}
          {contact ? (
            <>
              {contact.name} at{' '}
              <a className="break-all font-medium underline" href={`mailto:${contact.email}`}>
                {contact.email}
              </a>
              .
            </>
          ) : (
            'support.'
          )}{' '}
          <Link to="/dashboard/account" className="font-medium underline">
            Account Settings
          </Link>
        </p>
      </div>
    </div>
  );
}
