import { defineConfig } from 'vitest/config';
import { RunSummaryReporter } from './test/helpers/run-summary-reporter.js';

const run = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'vitest';

const common = {
  exclude: ['node_modules/**', 'dist/**', 'console/dist/**'],
  // Stops the PostgreSQL server a file's test servers shared (TEST_DATABASE=postgres).
  setupFiles: ['test/helpers/setup-test-database.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Screenshots the e2e tests attach (test context `annotate`) are copied here, beside the report.
  // A project's own option: set at the top it was not inherited, and they went to .vitest-attachments/.
  attachmentsDir: 'test-results/attachments',
};

export default defineConfig({
  test: {
    // Two cores: argon2, espeak-ng and Chromium all want CPU; two workers keep runs steady.
    maxWorkers: 2,
    // The JSON report, and the summary .ci/run prints one plain 'N passed, N failed' closing line
    // per run from, with the failed suites and unhandled errors no test count shows
    // (npm run test:postgres, TEST_DATABASE=postgres, has its own).
    reporters: ['default', ['json', { outputFile: `test-results/${run}.json` }], new RunSummaryReporter(`test-results/${run}-summary.json`)],
    projects: [
      {
        test: {
          ...common,
          name: 'unit',
          // The pure rules' tests beside their modules: no server, no engine, no global state, so
          // they share their workers' module graphs. A fresh graph per file cost each of these
          // ~150 files about as long to import as to run (30 s against 10 s on an idle machine).
          // pbx/'s are not among them: its call flows run on real timers and the media clock, and
          // beside other files in one graph their agent conversations heard an extra transcription.
          include: ['{contract,core,models,dialogue,console,root,scripts,eval,deploy,bench}/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        test: {
          ...common,
          // The rest, each file in a fresh module graph: test/ and pbx/'s call flows.
          name: 'integration',
          include: ['test/**/*.test.ts', 'pbx/**/*.test.ts'],
          // test/compose: its own run (npm run test:compose), minutes of image builds.
          exclude: [...common.exclude, 'test/compose/**'],
        },
      },
    ],
  },
});
