import { describe, expect, it } from 'vitest';
import { EpisodeNotices } from './episode-notices.js';

const at = (min: number) => new Date(Date.UTC(2026, 11, 3, 14, min));

describe('EpisodeNotices (who hears of the slow-box guard, once per episode)', () => {
  it('tells the admins once when the guard closes, however often closing is reported', () => {
    const n = new EpisodeNotices(2000);
    expect(n.closed(2400, at(0))).toEqual([{ to: 'admins', kind: 'paused', episode: 1, p50Ms: 2400, limitMs: 2000 }]);
    expect(n.closed(2600, at(1))).toEqual([]);
    expect(n.state()).toEqual({ state: 'closed', p50Ms: 2400, limitMs: 2000, since: at(0) });
  });

  it('tells an owner at their first call turned away in the episode, and not at the next', () => {
    const n = new EpisodeNotices(2000);
    n.closed(2400, at(0));
    expect(n.turnedAway(7)).toEqual([{ to: 'owner', kind: 'paused', episode: 1, ownerId: 7 }]);
    expect(n.turnedAway(7)).toEqual([]);
    expect(n.turnedAway(8)).toEqual([{ to: 'owner', kind: 'paused', episode: 1, ownerId: 8 }]);
  });

  it('tells the admins once of the recovery, and owners nothing', () => {
    const n = new EpisodeNotices(2000);
    n.closed(2400, at(0));
    n.turnedAway(7);
    expect(n.opened(900, at(5))).toEqual([{ to: 'admins', kind: 'recovered', episode: 1, p50Ms: 900, limitMs: 2000 }]);
    expect(n.opened(800, at(6))).toEqual([]);
    expect(n.state()).toEqual({ state: 'open', limitMs: 2000, since: at(5) });
  });

  it('tells an owner again in the next episode', () => {
    const n = new EpisodeNotices(2000);
    n.closed(2400, at(0));
    n.turnedAway(7);
    n.opened(900, at(5));
    expect(n.closed(3100, at(9))).toEqual([{ to: 'admins', kind: 'paused', episode: 2, p50Ms: 3100, limitMs: 2000 }]);
    expect(n.turnedAway(7)).toEqual([{ to: 'owner', kind: 'paused', episode: 2, ownerId: 7 }]);
  });

  it('tells no one of a refusal or an opening while the guard is open', () => {
    const n = new EpisodeNotices(2000);
    expect(n.turnedAway(7)).toEqual([]);
    expect(n.opened(500, at(0))).toEqual([]);
    expect(n.state()).toEqual({ state: 'open', limitMs: 2000 });
  });
});
