import { describe, expect, it } from 'vitest';
import { navItems, visibleGroups } from './nav';

describe('sidebar groups', () => {
  it('hides the Admin group from customers', () => {
    const groups = visibleGroups(navItems('twilio'), false);
    expect(groups.map((g) => g.group)).toEqual(['Main', 'Management']);
  });

  it('shows Bookings to every owner, in Main (services and the calendar come before the first booking)', () => {
    const main = visibleGroups(navItems('twilio'), false)[0]!;
    expect(main.items.map((i) => i.label)).toContain('Bookings');
    expect(main.items.find((i) => i.label === 'Bookings')!.to).toBe('/dashboard/bookings');
  });

  it('shows admin items, including the provider page, to admins', () => {
    const groups = visibleGroups(navItems('twilio'), true);
    expect(groups.map((g) => g.group)).toEqual(['Main', 'Management', 'Admin']);
    expect(groups[2]!.items.map((i) => i.to)).toContain('/dashboard/twilio-numbers');
  });
});
