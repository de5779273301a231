// Playwright's webServer: the real service on a fresh data folder with a known key, the fake
// writing model it talks to, and the dashboard built into a private folder and served by
// `vite preview` (proxying /api and /s to the service), so a rebuild of dist/ by anyone else
// during a run cannot pull chunks from under the pages. Everything ends with this process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { register } from 'tsx/esm/api';

// The suite's one fake model is TypeScript (test/helpers/fakeModel.ts).
register();
const { startWriterModel } = await import('./writerModel.ts');

export const E2E_API_KEY = 'e2e_key_0123456789abcdef';
const webPort = process.env.E2E_PORT ?? '8181';
const apiPort = process.env.E2E_API_PORT ?? String(Number(webPort) + 1);
const modelPort = Number(process.env.E2E_MODEL_PORT ?? Number(webPort) + 10);

const outDir = mkdtempSync(path.join(tmpdir(), 'bd-e2e-dist-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'bd-e2e-'));
const cleanup = () => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
};
const vite = path.resolve('node_modules/vite/bin/vite.js');
const built = spawnSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
  stdio: 'inherit',
});
if (built.status !== 0) {
  cleanup();
  process.exit(built.status ?? 1);
}

const model = await startWriterModel(modelPort);
const api = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: apiPort,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BROWSERDESK_API_KEY: E2E_API_KEY,
    WEBHOOK_ALLOW_PRIVATE: '1',
    // The e2e pages and the fake model are on loopback.
    BROWSER_ALLOW_PRIVATE_NETWORKS: '1',
    LOG_LEVEL: 'warn',
    MODEL_PROVIDER: 'openai-compatible',
    MODEL_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
    MODEL_NAME: 'fake-writer',
    MODEL_MAX_RETRIES: '0',
    WARM_POOL_SIZE: '0',
  },
});
// Serve the dashboard only once the service answers, so the readiness check sees both.
for (let i = 0; api.exitCode === null; i++) {
  const up = await fetch(`http://127.0.0.1:${apiPort}/api/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  if (i > 600) break; // 60 s: let Playwright's own timeout report it
  await new Promise((r) => setTimeout(r, 100));
}
const web = spawn(
  process.execPath,
  [
    vite,
    'preview',
    '--config',
    'e2e/support/preview.config.ts',
    '--outDir',
    outDir,
    '--port',
    webPort,
    '--strictPort',
    '--host',
    '127.0.0.1',
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, BROWSERDESK_URL: `http://127.0.0.1:${apiPort}` },
  },
);

let exiting = false;
function stop(code) {
  if (exiting) return;
  exiting = true;
  for (const child of [api, web]) if (child.exitCode === null) child.kill('SIGTERM');
  void model.close();
  Promise.all([api, web].map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => {
    cleanup();
    process.exit(code);
  });
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(0));
api.on('exit', (code) => stop(code ?? 1));
web.on('exit', (code) => stop(code ?? 1));
