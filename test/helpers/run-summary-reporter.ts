import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import type { RunSummary } from '../../scripts/ci/closing-lines.js';

// vitest's JSON report counts tests, but a file whose import or beforeAll threw has no failed
// test, and an error thrown outside any test (a socket reset in a teardown) is in no count and
// leaves `success: true`: a run with either printed "N passed, 0 failed". This reporter writes
// what .ci/run's closing lines need (scripts/ci/closing-lines.ts), those two included.

/** Writes the run's summary to `outputFile` when the run ends. */
export class RunSummaryReporter implements Reporter {
  constructor(private readonly outputFile: string) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const tests = testModules.flatMap((m) => [...m.children.allTests()]);
    const summary: RunSummary = {
      passed: tests.filter((t) => t.result().state === 'passed').length,
      failed: tests.filter((t) => t.result().state === 'failed').length,
      failedSuites: testModules.filter(failedOutsideTests).map((m) => m.relativeModuleId),
      unhandledErrors: unhandledErrors.length,
      failedTests: tests.filter((t) => t.result().state === 'failed').map(failedTestLine),
    };
    mkdirSync(dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, `${JSON.stringify(summary, null, 2)}\n`);
  }
}

/** "file > full name: the error's first line", the error cut short: a log line, not a report. */
function failedTestLine(t: TestCase): string {
  const first = t.result().errors?.[0]?.message?.split('\n')[0]?.trim() ?? '';
  const said = first.length > 160 ? `${first.slice(0, 159)}…` : first;
  return `${t.module.relativeModuleId} > ${t.fullName}${said ? `: ${said}` : ''}`;
}

/** The file did not load, or a hook of it or of one of its describe blocks threw. */
function failedOutsideTests(m: TestModule): boolean {
  return m.errors().length > 0 || [...m.children.allSuites()].some((s) => s.errors().length > 0);
}
