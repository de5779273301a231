import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './test/fixtures/chromiumArgs.ts';

const port = Number(process.env.E2E_PORT ?? 8181);

export default defineConfig({
  testDir: 'e2e',
  // A hang guard: beside both vitest passes on two cores a whole spec took over a minute.
  timeout: 180_000,
  // Every assertion's wait (toBeVisible, expect.poll, …) unless it names its own: Playwright's 5 s is
  // too short for a loaded host, where the dashboard, the service and its browsers share two cores.
  expect: { timeout: 15_000 },
  // Two: the suite waits far more than it computes (a quarter of two cores in use with one worker).
  workers: 2,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    screenshot: 'on',
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node e2e/support/server.mjs',
    // Through the dashboard's preview server to the service: both are up.
    url: `http://127.0.0.1:${port}/api/healthz`,
    reuseExistingServer: false,
    // SIGTERM first, so e2e/support/server.mjs ends its children and removes its temp folders.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    timeout: 120_000,
    env: { E2E_PORT: String(port) },
  },
});
