import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Real browsers and displays per test file: two cores, so keep the fan-out small.
    maxWorkers: 2,
    // BROWSERDESK_TEST_DB=postgres (npm run test:postgres): one throwaway Postgres for the run; otherwise a no-op.
    globalSetup: ['test/helpers/postgresGlobalSetup.ts'],
  },
});
