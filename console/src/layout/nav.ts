// Which sidebar item sits in which group. SPEC.md leaves the grouping open; this is ours.
export type NavGroup = 'Main' | 'Management' | 'Admin';
export type NavIcon = 'phone' | 'chart' | 'help' | 'bell' | 'hash' | 'settings' | 'user' | 'shield' | 'check' | 'server' | 'pound' | 'message' | 'calendar' | 'users';

export interface NavItem {
  label: string;
  to: string;
  group: NavGroup;
  icon: NavIcon;
  adminOnly?: boolean;
  /** Shown to a staff member's own sign-in too (issue 58): their calls, bookings, texts, questions and account. */
  staff?: boolean;
}

export function navItems(provider: string | undefined): NavItem[] {
  const items: NavItem[] = [
    { label: 'Call Logs', to: '/dashboard', group: 'Main', icon: 'phone', staff: true },
    // Calls in progress (issue 54), with their count beside the label.
    { label: 'Live', to: '/dashboard/live', group: 'Main', icon: 'phone', staff: true },
    { label: 'Analytics', to: '/dashboard/analytics', group: 'Main', icon: 'chart' },
    { label: 'AI Questions', to: '/dashboard/questions', group: 'Main', icon: 'help', staff: true },
    { label: 'Caller Texts', to: '/dashboard/texts', group: 'Main', icon: 'message', staff: true },
    // Always shown: services and the calendar are set up before the agent takes its first booking.
    { label: 'Bookings', to: '/dashboard/bookings', group: 'Main', icon: 'calendar', staff: true },
    { label: 'Team', to: '/dashboard/team', group: 'Management', icon: 'users' },
    { label: 'Notification Settings', to: '/dashboard/notifications', group: 'Management', icon: 'bell' },
    { label: 'Phone Numbers', to: '/dashboard/phone-numbers', group: 'Management', icon: 'hash' },
    { label: 'Settings', to: '/dashboard/settings', group: 'Management', icon: 'settings' },
    { label: 'Account Settings', to: '/dashboard/account', group: 'Management', icon: 'user', staff: true },
    { label: 'Admin Dashboard', to: '/dashboard/admin', group: 'Admin', icon: 'shield', adminOnly: true },
    { label: 'Signup Approvals', to: '/dashboard/approvals', group: 'Admin', icon: 'check', adminOnly: true },
    { label: 'Usage & Costs', to: '/dashboard/api-usage', group: 'Admin', icon: 'pound', adminOnly: true },
    { label: 'Nuisance Numbers', to: '/dashboard/screening', group: 'Admin', icon: 'shield', adminOnly: true },
  ];
  // The provider's page needs its name from /api/meta; until then the item waits.
  if (provider) items.push({ label: 'Number Management', to: `/dashboard/${provider}-numbers`, group: 'Admin', icon: 'server', adminOnly: true });
  return items;
}

/** Whether a signed-in role sees an item: admins everything, owners all but the admin area, staff only theirs. */
const sees = (item: NavItem, role: string | undefined) => (role === 'admin' ? true : role === 'staff' ? Boolean(item.staff) : !item.adminOnly);

/** Groups in order with their visible items for the signed-in role; a group with nothing visible is left out. */
export function visibleGroups(items: NavItem[], role: string | undefined): { group: NavGroup; items: NavItem[] }[] {
  const order: NavGroup[] = ['Main', 'Management', 'Admin'];
  return order
    .map((group) => ({ group, items: items.filter((i) => i.group === group && sees(i, role)) }))
    .filter((g) => g.items.length > 0);
}

/** The paths a staff sign-in may open; any other dashboard page sends them to Call Logs. */
export const staffPaths = (): string[] => navItems(undefined).filter((i) => i.staff).map((i) => i.to);
