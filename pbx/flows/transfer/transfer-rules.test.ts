import { describe, expect, it } from 'vitest';
import { outboundEndpoint } from './dial-string.js';
import { outcomeOfUnansweredLeg } from './outcome.js';

describe('the outbound dial string', () => {
  it('puts the owner’s number in E.164 or national form where the template says', () => {
    expect(outboundEndpoint('PJSIP/{number}@uk-did', '+447911123456')).toBe('PJSIP/+447911123456@uk-did');
    expect(outboundEndpoint('PJSIP/{national}@registration', '+447911123456')).toBe('PJSIP/07911123456@registration');
  });
});

describe('what became of the call to the owner', () => {
  it('reads Asterisk’s hang-up cause: busy, rejected, unanswered, or failed', () => {
    expect(outcomeOfUnansweredLeg(17)).toBe('busy');
    expect(outcomeOfUnansweredLeg(21)).toBe('rejected');
    expect(outcomeOfUnansweredLeg(19)).toBe('no-answer');
    expect(outcomeOfUnansweredLeg(0)).toBe('no-answer');
    expect(outcomeOfUnansweredLeg(34)).toBe('failed');
    expect(outcomeOfUnansweredLeg(undefined)).toBe('failed');
  });
});
