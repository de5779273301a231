import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Readiness } from '../contract/meta.ts';
import { RunStatusResponse } from '../contract/runs.ts';
import { startDownloadSite, type DownloadSite } from './fixtures/downloadSite.ts';
import { startChildServer, keyedCalls, type ChildServer } from './helpers/childServer.ts';
import { serviceProcesses } from './helpers/processes.ts';
import { waitForAsync } from './helpers/wait.ts';

// The image runs the server compiled (scripts/build-server.mjs, the Dockerfile's CMD): no tsx, no
// esbuild at run time. Built here as the image builds it, it must start, find its migrations and
// the dashboard, and run a flow on the engine thread bundled beside it. Starts Chromium: run it
// under `flock /tmp/heavy.lock`.
const ROOT = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-compiled-'));
const apiKey = `test_${randomBytes(16).toString('hex')}`;
const { api, post } = keyedCalls(apiKey);
let node: ChildServer | undefined;
let site: DownloadSite | undefined;

afterAll(async () => {
  await node?.stop();
  await site?.close();
  for (const p of serviceProcesses(dataDir)) process.kill(p.pid, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
});

describe('the compiled server (build/server/main.mjs)', () => {
  it('runs on Node 22 or later, as every server the tests start does (this process, or its execPath)', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  });

  it('builds, serves, and runs a flow on its prebuilt engine thread', async () => {
    await promisify(execFile)(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT });
    const main = path.join(ROOT, 'build/server/main.mjs');
    // Nothing of the TypeScript is loaded: the bundle imports no .ts file and no tsx or esbuild up front.
    const code = fs.readFileSync(main, 'utf8');
    expect(code).not.toMatch(/^import .* from "[^"]*\.ts";$/m);
    expect(code).not.toMatch(/^import .* from "(tsx|esbuild)[^"]*";$/m);

    node = await startChildServer({ dataDir, apiKey, entry: ['build/server/main.mjs'] });
    const ready = Readiness.parse(await (await fetch(`${node.url}/api/readyz`)).json());
    expect(ready).toMatchObject({ ready: true, room: true });
    // The dashboard is dist/, found from build/server/ as from server/http/.
    const page = await fetch(`${node.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    site = await startDownloadSite();
    const created = await post(node, '/api/workflows', {
      name: 'compiled',
      flow: { title: 'compiled', steps: [{ type: 'navigate', url: `${site.origin}/downloads` }] },
    });
    expect(created.status).toBe(201);
    const { id: workflowId } = (await created.json()) as { id: string };
    const run = await post(node, '/api/run_workflow', { workflow_id: workflowId });
    expect(run.status).toBe(200);
    const { session_id: sessionId } = (await run.json()) as { session_id: string };
    const done = await waitForAsync(
      'the run to end',
      async () => {
        const status = RunStatusResponse.parse(
          await (await api(node!, `/api/run_workflow_status?session_id=${sessionId}`)).json(),
        );
        return status.status === 'running' || status.status === 'queued' ? undefined : status;
      },
      90_000,
    );
    expect(done.status).toBe('succeeded');
  }, 180_000);
});
