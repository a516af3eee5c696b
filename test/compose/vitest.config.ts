import { defineConfig } from 'vitest/config';

// `npm run test:compose`: the compose stack test alone (test/compose/stack.test.ts). Kept out
// of `npm test`'s run because it builds images for tens of minutes; .ci/run runs both.
export default defineConfig({
  test: {
    include: ['test/compose/**/*.test.ts'],
    testTimeout: 10 * 60_000,
    hookTimeout: 60 * 60_000,
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: 'test-results/compose.json' }]],
  },
});
