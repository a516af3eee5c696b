import { describe, expect, it } from 'vitest';
import { navItems, staffPaths, visibleGroups } from './nav';

describe('sidebar groups', () => {
  it('hides the Admin group from customers', () => {
    const groups = visibleGroups(navItems('twilio'), 'customer');
    expect(groups.map((g) => g.group)).toEqual(['Main', 'Management']);
  });

  it('shows Bookings to every owner, in Main (services and the calendar come before the first booking)', () => {
    const main = visibleGroups(navItems('twilio'), 'customer')[0]!;
    expect(main.items.map((i) => i.label)).toContain('Bookings');
    expect(main.items.find((i) => i.label === 'Bookings')!.to).toBe('/dashboard/bookings');
  });

  it('shows admin items, including the provider page, to admins', () => {
    const groups = visibleGroups(navItems('twilio'), 'admin');
    expect(groups.map((g) => g.group)).toEqual(['Main', 'Management', 'Admin']);
    expect(groups[2]!.items.map((i) => i.to)).toContain('/dashboard/twilio-numbers');
  });
});

describe('what each sign-in sees (issue 58)', () => {
  it("shows the owner the Team page, under Management", () => {
    const management = visibleGroups(navItems('twilio'), 'customer')[1]!;
    expect(management.items.find((i) => i.label === 'Team')!.to).toBe('/dashboard/team');
  });

  it('shows a staff member only their calls, the live calls in their view, bookings, texts, questions and account', () => {
    const labels = visibleGroups(navItems('twilio'), 'staff').flatMap((g) => g.items.map((i) => i.label));
    expect(labels).toEqual(['Call Logs', 'Live', 'AI Questions', 'Caller Texts', 'Bookings', 'Account Settings']);
    expect(staffPaths()).toEqual(['/dashboard', '/dashboard/live', '/dashboard/questions', '/dashboard/texts', '/dashboard/bookings', '/dashboard/account']);
  });
});
