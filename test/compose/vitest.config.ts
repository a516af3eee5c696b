import { defineConfig } from 'vitest/config';
import { RunSummaryReporter } from '../helpers/run-summary-reporter.js';

// `npm run test:compose`: the compose stack tests alone (test/compose/: the one-box stack and
// the cluster profile, one file after the other on one Docker engine started by
// global-setup.ts; whichever builds first fills the build cache for the other). Kept out of
// `npm test`'s run because they build images for tens of minutes; .ci/run runs both.
export default defineConfig({
  test: {
    include: ['test/compose/**/*.test.ts'],
    globalSetup: ['test/compose/global-setup.ts'],
    testTimeout: 10 * 60_000,
    hookTimeout: 60 * 60_000,
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: 'test-results/compose.json' }], new RunSummaryReporter('test-results/compose-summary.json')],
  },
});
