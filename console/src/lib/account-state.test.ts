import { describe, expect, it } from 'vitest';
import { accountBanner, accountTrialBadge } from './account-state';

const now = new Date('2026-05-10T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString();
const owner = (accountStatus: 'active' | 'expired' | 'suspended' | 'pending_approval', trialExpiresAt: string | null) => ({
  role: 'customer',
  accountStatus,
  trialExpiresAt,
});

describe('account banner', () => {
  it('warns when the trial ends in 3 days or fewer, and not at 4', () => {
    expect(accountBanner(owner('active', inDays(2.5)), now)).toEqual({ kind: 'trial-ending', days: 3, trialExpiresAt: inDays(2.5) });
    expect(accountBanner(owner('active', inDays(0.2)), now)).toMatchObject({ kind: 'trial-ending', days: 1 });
    expect(accountBanner(owner('active', inDays(4)), now)).toBeNull();
    expect(accountBanner(owner('active', null), now)).toBeNull();
  });

  it('says the trial is over once its date has passed, even before the server marks the account expired', () => {
    expect(accountBanner(owner('active', inDays(-1)), now)).toEqual({ kind: 'trial-over' });
    expect(accountBanner(owner('expired', inDays(-1)), now)).toEqual({ kind: 'trial-over' });
  });

  it('says an expired or suspended account is not answering, whatever its trial date', () => {
    expect(accountBanner(owner('expired', inDays(7)), now)).toEqual({ kind: 'expired' });
    expect(accountBanner(owner('expired', null), now)).toEqual({ kind: 'expired' });
    expect(accountBanner(owner('suspended', inDays(7)), now)).toEqual({ kind: 'suspended' });
    expect(accountBanner(owner('pending_approval', null), now)).toEqual({ kind: 'expired' });
  });

  it('shows admins nothing', () => {
    expect(accountBanner({ role: 'admin', accountStatus: 'active', trialExpiresAt: inDays(1) }, now)).toBeNull();
  });
});

describe('trial status badge', () => {
  it('reads Expired for an expired account with days left on its trial', () => {
    expect(accountTrialBadge('expired', inDays(7), now)).toEqual({ text: 'Expired', urgent: true, expired: true });
    expect(accountTrialBadge('active', inDays(7), now)).toEqual({ text: '7 days remaining', urgent: false, expired: false });
  });
});
