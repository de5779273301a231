// Playwright's webServer: the real service on a fresh data folder with a known key, and the fake
// writing model it talks to (both end with this process).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { startFakeModel } from './fake-model.mjs';

export const E2E_API_KEY = 'e2e_key_0123456789abcdef';
const modelPort = Number(process.env.E2E_MODEL_PORT ?? 8191);
const model = await startFakeModel(modelPort);

const env = {
  ...process.env,
  PORT: process.env.E2E_PORT ?? '8181',
  HOST: '127.0.0.1',
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bd-e2e-')),
  BROWSERDESK_API_KEY: E2E_API_KEY,
  WEBHOOK_ALLOW_PRIVATE: '1',
  LOG_LEVEL: 'warn',
  WRITER_PROVIDER: 'openai-compatible',
  WRITER_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
  WRITER_MODEL: 'fake-writer',
  WRITER_MAX_RETRIES: '0',
  WARM_POOL_SIZE: '0',
};
const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => {
  model.close();
  process.exit(code ?? 0);
});
