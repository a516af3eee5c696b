import { describe, expect, it } from 'vitest';
import { showUrgencyOnCard, urgencyDetail, urgencyLabel } from './urgency';

describe('urgency display', () => {
  it('names each urgency, and a call no summary has judged', () => {
    expect(['urgent', 'normal', 'low', null].map((u) => urgencyLabel(u as never))).toEqual(['Urgent', 'Normal', 'Low priority', 'Not assessed']);
  });
  it('flags only urgent and low calls on the cards', () => {
    expect(showUrgencyOnCard('urgent')).toBe(true);
    expect(showUrgencyOnCard('low')).toBe(true);
    expect(showUrgencyOnCard('normal')).toBe(false);
    expect(showUrgencyOnCard(null)).toBe(false);
  });
  it('adds the reason when there is one', () => {
    expect(urgencyDetail('urgent', 'water coming through the ceiling')).toBe('Urgent: water coming through the ceiling');
    expect(urgencyDetail('normal', '  ')).toBe('Normal');
    expect(urgencyDetail(null, 'stale reason')).toBe('Not assessed');
  });
});
