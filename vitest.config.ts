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
    // One more try for a test that fails, and the run says which ones needed it ("retry x1"). The
    // suite runs at a load average of 25 to 45 on 2 cores (e2e beside three workers), where a rare
    // step of a real browser misses (a keystroke of a typed field, a browser start): two full runs
    // of one commit each failed on a different such test that passes alone and in the other run.
    // A failure that repeats still fails the run.
    retry: 1,
    // BROWSERDESK_TEST_DB=postgres (npm run test:postgres): one throwaway Postgres for the run; otherwise a no-op.
    globalSetup: ['test/helpers/postgresGlobalSetup.ts'],
    setupFiles: ['test/helpers/domTimeouts.ts'],
  },
});
