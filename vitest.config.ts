import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Only hang guards (no test depends on how fast the host is): a test of a few runs took over a
    // minute on a host loaded by the whole suite.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Real browsers and displays per test file, and much waiting on them: with two workers on two
    // cores a third of the CPU stayed idle; three fill it. No test depends on how fast the host is.
    maxWorkers: 3,
    // BROWSERDESK_TEST_DB=postgres (npm run test:postgres): one throwaway Postgres for the run; otherwise a no-op.
    globalSetup: ['test/helpers/postgresGlobalSetup.ts'],
    setupFiles: ['test/helpers/domTimeouts.ts'],
  },
});
