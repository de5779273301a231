import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStatusResponse, WebhookEvent } from '../contract/runs.ts';
import { LINKED_BYTES, LINKED_NAME, startDownloadSite, type DownloadSite } from './fixtures/downloadSite.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';
import { serviceProcesses, waitForNoServiceProcesses } from './helpers/processes.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { startChildServer, type ChildServer } from './helpers/childServer.ts';
import { waitForAsync } from './helpers/wait.ts';

// A run whose server process dies mid-run (SIGKILL: no shutdown path at all) gets its
// run.completed (failed) webhook from the next process started on the same DATA_DIR.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-crash-'));
const apiKey = `test_${randomBytes(16).toString('hex')}`;
let child: ChildServer | undefined;
let restarted: TestServer | undefined;
let receiver: Receiver | undefined;
let site: DownloadSite | undefined;

afterAll(async () => {
  await child?.stop('SIGKILL');
  await restarted?.close();
  await receiver?.close();
  await site?.close();
  // Whatever a failed run of this test left: this test's own processes only (found by its folder).
  for (const p of serviceProcesses(dataDir)) process.kill(p.pid, 'SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
});

const events = (r: Receiver) => r.received.map((x) => WebhookEvent.parse(JSON.parse(x.body)));

describe('a run interrupted by a crash', () => {
  it('is failed after the restart, with its run.completed webhook and the files it downloaded', async () => {
    receiver = await startReceiver();
    site = await startDownloadSite();
    child = await startChildServer({ dataDir, apiKey, env: { WEBHOOK_ALLOW_PRIVATE: '1' } });
    const { url } = child;
    const api = (p: string, init: RequestInit = {}) =>
      fetch(url + p, { ...init, headers: { 'x-api-key': apiKey, ...(init.headers as Record<string, string>) } });

    // A run that downloads a file, then stays under way: its last step waits two minutes for an element that never comes.
    const flow = {
      title: 'waits',
      steps: [
        { type: 'navigate', url: `${site.origin}/downloads` },
        { type: 'click', selectors: [['#link']], offsetX: 2, offsetY: 2 },
        { type: 'waitForElement', selectors: [['#never']], timeout: 120_000 },
      ],
    };
    const created = await api('/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'waits', flow }),
    });
    const { id: workflowId } = (await created.json()) as { id: string };
    const form = new FormData();
    form.append('workflow_id', workflowId);
    form.append('webhook_url', receiver.url);
    form.append('metadata', '{"order":42}');
    const run = await api('/api/run_workflow', { method: 'POST', body: form });
    expect(run.status).toBe(200);
    const { session_id: sessionId } = (await run.json()) as { session_id: string };
    await waitForAsync('run.started', () => events(receiver!).find((e) => e.type === 'run.started'), 30_000);
    const status = RunStatusResponse.parse(
      await (await api(`/api/run_workflow_status?session_id=${sessionId}`)).json(),
    );
    expect(status.status).toBe('running');
    const kept = path.join(dataDir, 'artifacts', sessionId, 'files', LINKED_NAME);
    await waitForAsync('the download kept', () => (fs.existsSync(kept) ? true : undefined), 30_000);

    // The process dies mid-run: no signal handler, no close hook, nothing written on the way out.
    await child.stop('SIGKILL');
    expect(serviceProcesses(dataDir).length).toBeGreaterThan(0); // its browser outlived it

    restarted = await startServer({ BROWSERDESK_API_KEY: apiKey }, dataDir);
    const completed = await waitForAsync(
      'run.completed',
      () => events(receiver!).find((e) => e.type === 'run.completed'),
      30_000,
    );
    expect(completed).toMatchObject({
      type: 'run.completed',
      data: {
        session_id: sessionId,
        workflow_id: workflowId,
        outcome: 'failed',
        metadata: '{"order":42}',
        message: expect.stringContaining('interrupted'),
      },
    });
    // What it downloaded before the crash is in its webhook, with a link that serves the bytes.
    const files = completed.type === 'run.completed' ? completed.file_metadata : [];
    expect(files.map((f) => [f.filename, f.file_size])).toEqual([[LINKED_NAME, LINKED_BYTES.length]]);
    // (The restarted test server listens on a port of its own choosing: its PUBLIC_URL names none, so the path is asked of it.)
    const link = new URL(files[0]!.download_url);
    expect(
      Buffer.from(await (await fetch(`${restarted.url}${link.pathname}${link.search}`)).arrayBuffer()).equals(
        LINKED_BYTES,
      ),
    ).toBe(true);
    const after = RunStatusResponse.parse(
      await (await restarted.api(`/api/run_workflow_status?session_id=${sessionId}`)).json(),
    );
    expect(after).toMatchObject({
      status: 'failed',
      completed: true,
      succeeded: false,
      message: completed.type === 'run.completed' ? completed.data.message : '',
    });
    expect(after.completed_at).not.toBeNull();
    // The session is ended as crashed and the dead process's browser is reaped.
    const session = (await (await restarted.api(`/api/sessions/${sessionId}`)).json()) as {
      state: string;
      end_reason: string;
    };
    expect(session).toMatchObject({ state: 'ended', end_reason: 'crashed' });
    expect(await waitForNoServiceProcesses(dataDir)).toEqual([]);

    // Once only: a second restart finds nothing left to fail.
    await restarted.close();
    restarted = await startServer({ BROWSERDESK_API_KEY: apiKey }, dataDir);
    await new Promise((r) => setTimeout(r, 500));
    expect(events(receiver).filter((e) => e.type === 'run.completed')).toHaveLength(1);
  });
});
