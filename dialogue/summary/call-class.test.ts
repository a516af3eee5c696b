import { describe, expect, it } from 'vitest';
import { callerWords, classifyCall, isScreenedClass, ruleClass } from './call-class.js';

describe('the rules, whatever the model says', () => {
  it('calls a transcript with no speech silent', () => {
    expect(ruleClass('')).toBe('silent');
    expect(ruleClass('  \n ')).toBe('silent');
    expect(ruleClass('[BLANK_AUDIO]')).toBe('silent');
    expect(ruleClass('(silence) ...')).toBe('silent');
    expect(classifyCall({ transcript: '', modelClass: 'genuine', urgent: false })).toBe('silent');
  });

  it('calls a message that opens with a menu choice or announces itself recorded', () => {
    expect(ruleClass('You may be entitled to compensation for your accident. Press one to speak to an advisor.')).toBe('recorded');
    expect(ruleClass('Hello. This is an automated message about your car warranty.')).toBe('recorded');
    expect(ruleClass('Your broadband will be disconnected today. Press 1 now.')).toBe('recorded');
    expect(classifyCall({ transcript: 'Press nine to be removed from our list.', modelClass: 'genuine', urgent: false })).toBe('recorded');
  });

  it('leaves a customer who mentions pressing one late in a real message to the model', () => {
    const late =
      'Hi it is Sam Patel from number 12 Acacia Avenue, the boiler you fitted last year has stopped working again and it is making a banging noise, I tried the reset and then I had to press one on the control panel but nothing happened';
    expect(ruleClass(late)).toBeNull();
    expect(classifyCall({ transcript: late, modelClass: null, urgent: false })).toBe('genuine');
  });

  it('reads only the caller\'s lines of an agent conversation', () => {
    const agent = 'Agent: Hello, Pat\'s Plumbing, how can I help? Press one is not a thing here.\nCaller: Hi, I need a quote for a new bathroom.';
    expect(callerWords(agent).trim()).toBe('Hi, I need a quote for a new bathroom.');
    expect(ruleClass(agent)).toBeNull();
    expect(ruleClass('Agent: Hello, how can I help?\nCaller: ')).toBe('silent');
  });

  it('takes the model\'s class when the rules have none, and genuine when it gave none', () => {
    expect(classifyCall({ transcript: 'Hi, I am calling from Sunny Solar about panels for your roof.', modelClass: 'sales', urgent: false })).toBe('sales');
    expect(classifyCall({ transcript: 'Is that Dave? Oh sorry, wrong number.', modelClass: 'wrong-number', urgent: false })).toBe('wrong-number');
    expect(classifyCall({ transcript: 'Hi, I need a plumber.', modelClass: null, urgent: false })).toBe('genuine');
  });

  it('never screens an urgent call, whatever the model or the rules say', () => {
    expect(classifyCall({ transcript: 'Press one... no, sorry, there is water pouring through my ceiling, please call me!', modelClass: 'recorded', urgent: true })).toBe('genuine');
    expect(classifyCall({ transcript: 'I am selling gas safety checks, there is a leak', modelClass: 'sales', urgent: true })).toBe('genuine');
  });

  it('screens every class but genuine', () => {
    expect(isScreenedClass('genuine')).toBe(false);
    expect(isScreenedClass(null)).toBe(false);
    for (const c of ['sales', 'recorded', 'silent', 'wrong-number'] as const) expect(isScreenedClass(c)).toBe(true);
  });
});
