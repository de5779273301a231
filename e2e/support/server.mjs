// Playwright's webServer: the real service on a fresh data folder with a known key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';

export const E2E_API_KEY = 'e2e_key_0123456789abcdef';
const env = {
  ...process.env,
  PORT: process.env.E2E_PORT ?? '8181',
  HOST: '127.0.0.1',
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bd-e2e-')),
  BROWSERDESK_API_KEY: E2E_API_KEY,
  WEBHOOK_ALLOW_PRIVATE: '1',
  LOG_LEVEL: 'warn',
};
const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
