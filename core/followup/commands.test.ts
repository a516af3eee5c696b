import { describe, expect, it } from 'vitest';
import { parseCommand, referenceLine } from './commands.js';

describe('parseCommand', () => {
  it('reads DONE and CALL with the reference in any case and spelling', () => {
    expect(parseCommand('DONE 41')).toEqual({ kind: 'done', ref: 41 });
    expect(parseCommand('  done #41. ')).toEqual({ kind: 'done', ref: 41 });
    expect(parseCommand('Call ref 7')).toEqual({ kind: 'call', ref: 7 });
    expect(parseCommand('DONE')).toEqual({ kind: 'done', ref: null });
    expect(parseCommand('DONE forty one')).toEqual({ kind: 'done', ref: null });
  });
  it('keeps the KB answer as typed, line breaks included', () => {
    expect(parseCommand('KB We open at 8.\nClosed Sundays.')).toEqual({ kind: 'kb', answer: 'We open at 8.\nClosed Sundays.' });
    expect(parseCommand('kb   ')).toEqual({ kind: 'kb', answer: '' });
  });
  it('reads AGENT ON and AGENT OFF, and nothing else as a mode', () => {
    expect(parseCommand('agent on')).toEqual({ kind: 'agent', on: true });
    expect(parseCommand('AGENT OFF!')).toEqual({ kind: 'agent', on: false });
    expect(parseCommand('AGENT please')).toEqual({ kind: 'agent', on: null });
  });
  it('knows HELP, and calls anything else unknown', () => {
    expect(parseCommand('Help')).toEqual({ kind: 'help' });
    expect(parseCommand('Thanks!')).toEqual({ kind: 'unknown' });
    expect(parseCommand('41 DONE')).toEqual({ kind: 'unknown' });
    expect(parseCommand('')).toEqual({ kind: 'unknown' });
    expect(parseCommand('DONEZO 41')).toEqual({ kind: 'unknown' });
  });
  it('writes the reference a summary text ends with', () => {
    expect(referenceLine(41)).toBe('Reply DONE 41 when called back.');
  });
});
