import fs from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStatusResponse, RunWorkflowResponse, WebhookEvent } from '../contract/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { treeGone } from './helpers/processes.ts';
import { formWorkflow, REPORT_BYTES } from './fixtures/flows.ts';
import { RECORDED_ORIGIN, startFormSite, type FormSite } from './fixtures/formSite.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';

// The whole path: multipart request → session → replay on its Chromium → status → webhooks.
let server: TestServer;
let site: FormSite;
let hooks: Receiver;
beforeAll(async () => {
  [server, site, hooks] = await Promise.all([startServer(), startFormSite(), startReceiver([200])]);
  server.app.webhooks.retryDelaysMs = [200, 200];
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await hooks?.close();
});

async function createWorkflow(body: unknown): Promise<string> {
  const res = await postJson(server, '/api/workflows', body);
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

async function runWorkflow(fields: Record<string, string>, files: { name: string; bytes: Buffer }[] = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of files) fd.append('files', new Blob([new Uint8Array(f.bytes)]), f.name);
  const res = await server.api('/api/run_workflow', { method: 'POST', body: fd });
  return { status: res.status, body: RunWorkflowResponse.parse(await res.json()) };
}

async function untilCompleted(sessionId: string): Promise<RunStatusResponse> {
  for (;;) {
    const res = await server.api(`/api/run_workflow_status?session_id=${sessionId}`);
    expect(res.status).toBe(200);
    const status = RunStatusResponse.parse(await res.json());
    if (status.completed) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The session as GET /api/sessions/{id} reports it. */
async function sessionOf(id: string): Promise<{ state: string; end_reason: string | null }> {
  const res = await server.api(`/api/sessions/${id}`);
  expect(res.status).toBe(200);
  return res.json();
}

/** True when nothing answers on the Chromium's DevTools port any more: its process is gone. */
const METADATA = '{"order": 7, "tags": ["a", "b"], "note": "unchanged \\u00e9"}';

describe('POST /api/run_workflow', () => {
  it('fills the form from variables, uploads the file, submits, extracts; reports status and webhooks', async () => {
    const workflowId = await createWorkflow(formWorkflow());
    const before = site.submissions.length;
    const { status, body } = await runWorkflow(
      {
        workflow_id: workflowId,
        variables: JSON.stringify({ site: site.origin, name: 'Ada Lovelace', size: 'large' }),
        metadata: METADATA,
        webhook_url: hooks.url,
      },
      [{ name: 'report.txt', bytes: REPORT_BYTES }],
    );
    expect(status).toBe(200);
    expect(body.succeeded).toBe(true);
    expect(body.vnc_url).toMatch(new RegExp(`^${server.url}/s/${body.session_id}/vnc\\?token=.+`));

    const run = await untilCompleted(body.session_id);
    expect(run.message).toBe('All 12 steps succeeded');
    expect(run).toMatchObject({
      succeeded: true,
      completed: true,
      status: 'succeeded',
      total_actions: 12,
      session_id: body.session_id,
      workflow_id: workflowId,
    });
    // What the page showed, and what the site received.
    const sub = site.submissions[before]!;
    expect(sub).toMatchObject({ name: 'Ada Lovelace', email: 'nobody@example.org', size: 'large' });
    expect(sub.file!.bytes.equals(REPORT_BYTES)).toBe(true);
    expect(run.outputs).toEqual({
      name: 'Ada Lovelace',
      size: 'large',
      file: `report.txt (${REPORT_BYTES.length} bytes)`,
      link: `/orders/${before + 1}`,
    });
    expect(run.results).toHaveLength(12);
    expect(run.results.map((r) => r.action)).toEqual([
      'setViewport',
      'navigate',
      'change',
      'change',
      'change',
      'uploadFile',
      'click',
      'waitForElement',
      'extract',
      'extract',
      'extract',
      'extract',
    ]);
    expect(run.results[1]!.params).toMatchObject({ url: `${site.origin}/form` });
    for (const r of run.results) {
      expect(r.result.ok).toBe(true);
      expect(Date.parse(r.timestamp)).toBeGreaterThan(0);
      expect(r.duration).toBeGreaterThanOrEqual(0);
    }
    expect(run.screenshot).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(run.completed_at).not.toBeNull();

    // The upload folder is gone and the session ended with its browser.
    const runsDir = path.join(server.dataDir, 'runs');
    expect(fs.existsSync(runsDir) ? fs.readdirSync(runsDir) : []).toEqual([]);
    expect(await treeGone(server.dataDir, body.session_id)).toBe(true);
    expect(await sessionOf(body.session_id)).toMatchObject({ state: 'ended', end_reason: 'completed' });

    // run.started and run.completed, signed, metadata unchanged.
    const got = await hooks.waitFor(2);
    const wh = new Webhook((await (await server.api('/api/webhooks/secret')).json()).secret);
    const events = got
      .map((d) => WebhookEvent.parse(wh.verify(d.body, d.headers)))
      .filter((e) => e.data.session_id === body.session_id);
    expect(events.map((e) => e.type)).toEqual(['run.started', 'run.completed']);
    for (const e of events) expect(e.data.metadata).toBe(METADATA);
    expect(events[1]!.data).toMatchObject({ outcome: 'succeeded', outputs: run.outputs, workflow_id: workflowId });
  });

  it('imports a Chrome Recorder export and replays it', async () => {
    const text = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/recorder-export.json'), 'utf8');
    const workflowId = await createWorkflow({
      name: 'recorded',
      flow: JSON.parse(text.replaceAll(RECORDED_ORIGIN, site.origin)),
    });
    const before = site.submissions.length;
    const { status, body } = await runWorkflow({ workflow_id: workflowId });
    expect(status).toBe(200);
    const run = await untilCompleted(body.session_id);
    expect(run.message).toBe(`All ${run.total_actions} steps succeeded`);
    expect(site.submissions.slice(before)).toEqual([
      { name: 'Grace Hopper', email: 'grace@example.org', size: 'large' },
    ]);
  });

  it('a failing selector fails the run naming the step; the session and its browser end', async () => {
    const workflowId = await createWorkflow({
      name: 'broken',
      flow: {
        title: 'broken',
        timeout: 1500,
        steps: [
          // The flow's 1.5 s is the missing button's; the page's load has a loaded host's time.
          { type: 'navigate', url: `${site.origin}/form`, timeout: 30_000 },
          { type: 'click', selectors: [['#no-such-button']], offsetX: 1, offsetY: 1 },
          { type: 'change', selectors: [['#name']], value: 'never' },
        ],
      },
    });
    const { status, body } = await runWorkflow({ workflow_id: workflowId, webhook_url: hooks.url, metadata: '"m"' });
    expect(status).toBe(200);
    const run = await untilCompleted(body.session_id);
    expect(run).toMatchObject({ succeeded: false, completed: true, status: 'failed', total_actions: 3 });
    expect(run.message).toMatch(
      /^Step 2 \(click #no-such-button\): no element matched within 1.5 s\. Check the selector in the workflow editor\.$/,
    );
    expect(run.results.map((r) => [r.action, r.result.ok])).toEqual([
      ['navigate', true],
      ['click', false],
    ]);
    expect(run.results[1]!.result.error).toEqual(expect.any(String));
    expect(await treeGone(server.dataDir, body.session_id)).toBe(true);
    expect(await sessionOf(body.session_id)).toMatchObject({ state: 'ended', end_reason: 'completed' });
    const wh = new Webhook((await (await server.api('/api/webhooks/secret')).json()).secret);
    for (;;) {
      const completed = hooks.received
        .map((d) => WebhookEvent.parse(wh.verify(d.body, d.headers)))
        .find((e) => e.type === 'run.completed' && e.data.session_id === body.session_id);
      if (completed) {
        expect(completed.data).toMatchObject({ outcome: 'failed', message: run.message, metadata: '"m"' });
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});

describe('a run when the server closes', () => {
  it('fails, ends its browser, and reads as failed after a restart', async () => {
    const own = await startServer();
    let reopened: TestServer | undefined;
    try {
      const create = await postJson(own, '/api/workflows', {
        name: 'slow',
        flow: {
          title: 'slow',
          steps: [
            { type: 'navigate', url: `${site.origin}/form` },
            {
              type: 'waitForExpression',
              expression: 'new Promise((r) => setTimeout(() => r(true), 60000))',
              timeout: 120000,
            },
          ],
        },
      });
      const fd = new FormData();
      fd.append('workflow_id', (await create.json()).id);
      const started = RunWorkflowResponse.parse(
        await (await own.api('/api/run_workflow', { method: 'POST', body: fd })).json(),
      );
      for (;;) {
        const s = RunStatusResponse.parse(
          await (await own.api(`/api/run_workflow_status?session_id=${started.session_id}`)).json(),
        );
        if (s.results.length === 1) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await own.close();
      expect(await treeGone(own.dataDir, started.session_id)).toBe(true);

      reopened = await startServer({}, own.dataDir);
      const res = await reopened.api(`/api/run_workflow_status?session_id=${started.session_id}`);
      const s = RunStatusResponse.parse(await res.json());
      expect(s).toMatchObject({ completed: true, succeeded: false, status: 'failed' });
      expect(s.message).toMatch(/^Step 2 \(waitForExpression\)|stopped/);
    } finally {
      await reopened?.close();
    }
  });
});
