// .ci/run's closing lines, one run each, read by whoever reads the CI log. The last line of a
// run keeps the plain 'name: N passed, N failed' CI reads; the line before it, when there is
// one, says what no test count shows: test files that failed to run, errors outside any test.
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
  lines.push(`${run}: ${summary.passed} passed, ${summary.failed} failed`);
  return lines;
}
