import { describe, expect, it } from 'vitest';
import { asksForCallBack } from './call-back-asked.js';

describe('asksForCallBack: the caller asks to be rung back', () => {
  it.each([
    'Could you ring me back after four?',
    'could you ring me back after four',
    'Can someone call me after four?',
    'Ring me back tomorrow morning.',
    'Please call me back',
    'CALL ME BACK',
    "I'd like a call back this afternoon",
    'Can I get a callback on Monday?',
    'Can you give me a ring later',
    'Hi, it’s about the boiler. Could somebody phone me at 2?',
    'Would you be able to call us back in an hour',
    'Can Tom call me when he is free?',
    'can you call me',
  ])('%s', (words) => expect(asksForCallBack(words)).toBe(true));
});

describe('asksForCallBack: other words are not a wish', () => {
  it.each([
    'What time do you open?',
    "Don't call me back, I'll ring again.",
    'No need to ring me back',
    'Please do not call me',
    "I'll call back later",
    'I will call you back tomorrow',
    'Why did you ring me?',
    'You called me back yesterday',
    'You can call me Dave',
    'I missed a call from this number',
    'Can you put me through to Sarah',
    'Can I book a boiler service for Tuesday',
    '',
  ])('%s', (words) => expect(asksForCallBack(words)).toBe(false));
});
