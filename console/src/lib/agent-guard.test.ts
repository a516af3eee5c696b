import { describe, expect, it } from 'vitest';
import { agentGuardLine } from './agent-guard';

const time = (iso: string) => iso.slice(11, 16);

describe('agentGuardLine (the admin dashboard)', () => {
  it('says in plain words that agent mode is paused, how slow the assistant was and the limit', () => {
    expect(agentGuardLine({ state: 'closed', p50Ms: 2400, limitMs: 2000, since: '2026-12-03T14:05:00.000Z' }, time)).toBe(
      "Agent mode paused on this node: the assistant took 2.4 s to start answering (limit 2 s). New agent-mode calls are answered in voicemail mode with each owner's greeting until it recovers by itself. Paused since 14:05.",
    );
  });

  it('never shows a median just over the limit as the limit itself', () => {
    expect(agentGuardLine({ state: 'closed', p50Ms: 2010, limitMs: 2000 }, time)).toMatch(/^Agent mode paused on this node: the assistant took 2\.1 s to start answering \(limit 2 s\)\./);
  });

  it('says nothing while the guard is open, after an episode too', () => {
    expect(agentGuardLine({ state: 'open', limitMs: 2000, since: '2026-12-03T14:25:00.000Z' }, time)).toBeNull();
  });
});
