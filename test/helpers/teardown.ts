import fs from 'node:fs';
import { expect } from 'vitest';
import { waitForNoServiceProcesses } from './processes.ts';
import type { TestServer } from './server.ts';

/**
 * The teardown of a file whose server started browsers: close it, fail when any process it started
 * outlives it (a leak would go on running after the tests), then remove its data folder. No server
 * (its start failed) leaves nothing to do.
 */
export async function closeLeavingNothing(server: TestServer | undefined): Promise<void> {
  if (!server) return;
  await server.close();
  expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
  fs.rmSync(server.dataDir, { recursive: true, force: true, maxRetries: 3 });
}
