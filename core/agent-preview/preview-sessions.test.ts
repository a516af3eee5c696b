import { describe, expect, it } from 'vitest';
import { PreviewSessions } from './preview-sessions.js';

const LIMITS = { perOwner: 2, boxWide: 3, idleMs: 1000 };

describe('PreviewSessions', () => {
  it('gives an owner back only their own conversation, kept alive by use, gone once idle too long', () => {
    let now = 0;
    const sessions = new PreviewSessions<{ n: number }>(() => now, LIMITS);
    const id = sessions.open(1, { n: 1 })!;
    expect(sessions.get(2, id)).toBeUndefined();
    now = 900;
    expect(sessions.get(1, id)).toEqual({ n: 1 });
    now = 1800; // 900 ms since the last use
    expect(sessions.get(1, id)).toEqual({ n: 1 });
    now = 2801;
    expect(sessions.get(1, id)).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('a few per owner (a new one drops their least recently used), a cap box-wide until idle ones expire', () => {
    let now = 0;
    const sessions = new PreviewSessions<string>(() => now, LIMITS);
    const a = sessions.open(1, 'a')!;
    now = 1;
    const b = sessions.open(1, 'b')!;
    now = 2;
    expect(sessions.get(1, a)).toBe('a'); // b is now the least recently used
    const c = sessions.open(1, 'c')!;
    expect([sessions.get(1, a), sessions.get(1, b), sessions.get(1, c)]).toEqual(['a', undefined, 'c']);

    expect(sessions.open(2, 'd')).not.toBeNull();
    expect(sessions.size).toBe(3);
    expect(sessions.open(3, 'e')).toBeNull();
    now = 2000; // every one idle past the limit: swept when the next opens
    expect(sessions.open(3, 'e')).not.toBeNull();
    expect(sessions.size).toBe(1);
  });
});
