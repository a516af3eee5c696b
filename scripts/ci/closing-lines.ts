// .ci/run's closing lines, one run each, read by whoever reads the CI log. The last line of a
// run keeps the plain 'name: N passed, N failed' CI reads; the lines before it, when there are
// any, say what no test count shows: test files that failed to run, errors outside any test, and
// which tests failed.
// scripts/ci/print-closing-lines.ts prints them from test-results/<run>-summary.json, which
// test/helpers/run-summary-reporter.ts writes.

/** What one vitest run left, as the run-summary reporter writes it. */
export interface RunSummary {
  passed: number;
  failed: number;
  /** Test files whose import, or a beforeAll/afterAll of theirs, threw: their tests never ran. */
  failedSuites: string[];
  /** Errors vitest caught outside any test (it reports them as "Unhandled Errors"). */
  unhandledErrors: number;
  /**
   * The failed tests, "file > test's full name: its error's first line", so a log that shows only its last lines still
   * says which test failed (a CI run once said "1 failed" and nothing else anyone could read).
   */
  failedTests?: string[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A run's lines; `summary` undefined when the run left none (it did not start, or crashed). */
export function closingLines(run: string, summary: RunSummary | undefined): string[] {
  if (!summary) return [`${run}: no summary (the run did not start, or stopped before its end): FAILED`];
  const lines: string[] = [];
  if (summary.failedSuites.length > 0 || summary.unhandledErrors > 0) {
    const files = summary.failedSuites.length > 0 ? ` (${summary.failedSuites.join(', ')})` : '';
    lines.push(`${run}: ${plural(summary.failedSuites.length, 'failed suite', 'failed suites')}${files}, ${plural(summary.unhandledErrors, 'unhandled error', 'unhandled errors')}`);
  }
  const failedTests = summary.failedTests ?? [];
  if (failedTests.length > 0) lines.push(`${run}: failed: ${failedTests.join('; ')}`);
  lines.push(`${run}: ${summary.passed} passed, ${summary.failed} failed`);
  return lines;
}
