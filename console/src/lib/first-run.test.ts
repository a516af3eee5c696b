import { describe, expect, it } from 'vitest';
import { firstRunSteps, showFirstRun } from './first-run';

const done = (s: Parameters<typeof firstRunSteps>[0]) => firstRunSteps(s).filter((x) => x.done).map((x) => x.id);

describe('first-run checklist', () => {
  it('ticks nothing for a new owner', () => {
    expect(done({ textsConfirmed: false, hasNumber: false, hasCalls: false, aiMode: 'voicemail', callGreeting: null })).toEqual([]);
  });
  it('ticks each step from real state', () => {
    expect(done({ textsConfirmed: true, hasNumber: false, hasCalls: false, aiMode: 'voicemail', callGreeting: null })).toEqual(['texts']);
    expect(done({ textsConfirmed: false, hasNumber: true, hasCalls: false, aiMode: 'voicemail', callGreeting: '  ' })).toEqual(['number']);
    expect(done({ textsConfirmed: false, hasNumber: true, hasCalls: false, aiMode: 'agent', callGreeting: null })).toEqual(['number', 'mode']);
    expect(done({ textsConfirmed: false, hasNumber: true, hasCalls: false, aiMode: 'voicemail', callGreeting: 'Hi, you reached Sam.' })).toEqual(['number', 'mode']);
    expect(done({ textsConfirmed: true, hasNumber: true, hasCalls: true, aiMode: 'agent', callGreeting: null })).toEqual(['texts', 'number', 'forwarding', 'call-from-phone', 'mode']);
  });
});

describe('when the checklist shows', () => {
  it('only before the first call, and never while the line is not answering', () => {
    expect(showFirstRun({ hasCalls: false, lineNotAnswering: false })).toBe(true);
    expect(showFirstRun({ hasCalls: true, lineNotAnswering: false })).toBe(false);
    expect(showFirstRun({ hasCalls: false, lineNotAnswering: true })).toBe(false);
  });
});
