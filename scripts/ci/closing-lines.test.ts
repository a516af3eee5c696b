import { describe, expect, it } from 'vitest';
import { closingLines } from './closing-lines.js';

describe('.ci/run closing lines', () => {
  it('a clean run: the plain line alone', () => {
    expect(closingLines('vitest', { passed: 1204, failed: 0, failedSuites: [], unhandledErrors: 0 })).toEqual(['vitest: 1204 passed, 0 failed']);
  });

  it('a run whose tests all passed but a file did not load and an error escaped: said before the plain line', () => {
    expect(closingLines('vitest', { passed: 15, failed: 0, failedSuites: ['test/booking/caldav.test.ts'], unhandledErrors: 1 })).toEqual([
      'vitest: 1 failed suite (test/booking/caldav.test.ts), 1 unhandled error',
      'vitest: 15 passed, 0 failed',
    ]);
    expect(closingLines('postgres', { passed: 5, failed: 1, failedSuites: [], unhandledErrors: 2 })).toEqual(['postgres: 0 failed suites, 2 unhandled errors', 'postgres: 5 passed, 1 failed']);
  });

  it('names each failed test on the line before the counts', () => {
    expect(
      closingLines('vitest', { passed: 9, failed: 2, failedSuites: [], unhandledErrors: 0, failedTests: ['test/a.test.ts > calls > rings', 'test/b.test.ts > texts'] }),
    ).toEqual(['vitest: failed: test/a.test.ts > calls > rings; test/b.test.ts > texts', 'vitest: 9 passed, 2 failed']);
  });

  it('a run that left no summary is a failure, not silence', () => {
    expect(closingLines('postgres', undefined)).toEqual(['postgres: no summary (the run did not start, or stopped before its end): FAILED']);
  });
});
