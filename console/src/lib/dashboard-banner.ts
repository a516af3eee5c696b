// Which account banner the dashboard shows (issue 59). With BILLING=stripe the server words the
// trial's end, a failed payment and a lapsed plan itself (they now end in "add a card", not
// "contact support"), so its banner replaces the console's own; an admin's suspension is no
// matter of money and keeps its own words. Without billing nothing changes.
import type { ApiBilling } from '../../../contract/payments';
import { lineNotAnswering, type AccountBanner } from './account-state';

export type DashboardBanner = { kind: 'account'; banner: AccountBanner } | { kind: 'billing'; text: string; urgent: boolean } | null;

export function dashboardBanner(account: AccountBanner | null, billing: Pick<ApiBilling, 'enabled' | 'banner'> | undefined): DashboardBanner {
  if (account?.kind !== 'suspended' && billing?.enabled && billing.banner) return { kind: 'billing', text: billing.banner, urgent: lineNotAnswering(account) };
  return account ? { kind: 'account', banner: account } : null;
}
