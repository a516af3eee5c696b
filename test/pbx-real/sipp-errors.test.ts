import { describe, expect, it } from 'vitest';
import { sippErrors } from './sipp.js';

// SIPp's error file as the real-PBX tests read it: its watchdog's lateness warnings (a loaded
// machine) are not errors of the call; anything else is kept.
const HEADER = 'The following events occurred:';
const WATCHDOG = '2026-11-27\t05:43:04.186488\t1795758184.186488: Overload warning: the minor watchdog timer 500ms has been tripped (568), 119 trips remaining.';
const UNEXPECTED = "2026-11-27\t05:43:05.000000\t1795758185.000000: Aborting call on unexpected message for Call-Id '1-2@127.0.0.1': while expecting '200' (index 3), received 'SIP/2.0 503 Service Unavailable'";

describe('sippErrors', () => {
  it('reads nothing into an error file that holds only watchdog warnings', () => {
    expect(sippErrors(`${HEADER}\n${WATCHDOG}\n${WATCHDOG.replace('minor', 'major')}\n`)).toBe('');
    expect(sippErrors('')).toBe('');
  });

  it('keeps every other line, the warnings left out', () => {
    expect(sippErrors(`${HEADER}\n${WATCHDOG}\n${UNEXPECTED}\n`)).toBe(`${HEADER}\n${UNEXPECTED}`);
  });
});
