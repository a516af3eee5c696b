import { describe, expect, it } from 'vitest';
import { soonestAcross } from './soonest.js';

const slot = (who: string, hour: number) => ({ who, start: hour * 3_600_000, end: (hour + 1) * 3_600_000 });

describe('the soonest free times across people', () => {
  it('takes the soonest starts whoever has them, each start once, the first person in order free then', () => {
    const tom = [slot('Tom', 11), slot('Tom', 12), slot('Tom', 15)];
    const sarah = [slot('Sarah', 10), slot('Sarah', 12), slot('Sarah', 13)];
    expect(soonestAcross([tom, sarah], 3).map((s) => `${s.who} ${s.start / 3_600_000}`)).toEqual(['Sarah 10', 'Tom 11', 'Tom 12']);
  });

  it('is one person\'s own list when there is one person', () => {
    const only = [slot('Owner', 9), slot('Owner', 10)];
    expect(soonestAcross([only], 3)).toEqual(only);
  });
});
