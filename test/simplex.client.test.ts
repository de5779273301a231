import { Webhook } from 'standardwebhooks';
import { SimplexClient, verifySimplexWebhook, WorkflowError, type SessionStatusResponse } from 'simplex-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionEvent } from '../contract/sessionEvents.ts';
import { WebhookEvent } from '../contract/runs.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { createWorkflow } from './helpers/runs.ts';
import { untilDone } from './helpers/simplexClient.ts';
import { waitForAsync } from './helpers/wait.ts';
import { formWorkflow, REPORT_BYTES } from './fixtures/flows.ts';
import { startFormSite, type FormSite } from './fixtures/formSite.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';

// Simplex's own TypeScript client, pointed at Browserdesk by its base URL only, driving real
// sessions: every one of its methods, and what a program written for it expects back.
let server: TestServer;
let site: FormSite;
let hooks: Receiver;
let client: SimplexClient;
beforeAll(async () => {
  [server, site, hooks] = await Promise.all([startServer(), startFormSite(), startReceiver([200])]);
  client = new SimplexClient({ apiKey: server.apiKey, baseURL: `${server.url}/api`, maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await hooks?.close();
});

/** Submit the form with a name and extract what the result page shows; `before` steps go first. */
const nameFlow = (title: string, before: unknown[] = [], value = '{{name}}') => ({
  name: title,
  flow: {
    title,
    steps: [
      { type: 'navigate', url: '{{site}}/form' },
      ...before,
      { type: 'change', selectors: [['#name']], value },
      {
        type: 'click',
        selectors: [['#send']],
        offsetX: 5,
        offsetY: 5,
        assertedEvents: [{ type: 'navigation', title: 'Order received' }],
      },
      { type: 'waitForElement', selectors: [['#result-name']] },
      { type: 'customStep', name: 'extract', parameters: { selectors: [['#result-name']], as: 'name' } },
    ],
  },
  variables: [
    { name: 'site', type: 'string', required: true },
    { name: 'name', type: 'string', required: false, default: 'nobody' },
  ],
});

async function eventsOf(sessionId: string): Promise<SessionEvent[]> {
  const res = await server.api(`/api/session/${sessionId}/events?limit=1000`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: unknown[] }).events.map((e) => SessionEvent.parse(e));
}

describe('simplex-ts against Browserdesk', () => {
  it('workflows.run without files (urlencoded): polls to success with the outputs, logs_url and the session log', async () => {
    const id = await createWorkflow(server, nameFlow('no files'));
    const run = await client.workflows.run(id, {
      variables: { site: site.origin, name: 'Grace Hopper' },
      metadata: '{"order":1}',
    });
    expect(run.succeeded).toBe(true);
    expect(run.vnc_url).toMatch(new RegExp(`^${server.url}/s/${run.session_id}/vnc\\?token=`));
    expect(run.logs_url).toMatch(new RegExp(`^${server.url}/api/session/${run.session_id}/stream\\?token=`));
    // While it runs, its logs are null.
    expect(await client.retrieveSessionLogs(run.session_id)).toBeNull();
    const seen: SessionStatusResponse[] = [];
    const status = await untilDone(client, run.session_id, seen);
    expect(seen[0]).toMatchObject({ in_progress: true, success: null, structured_output: null, paused: false });
    expect(status).toMatchObject({
      in_progress: false,
      success: true,
      // The caller's string, byte for byte; parsed beside it when it holds JSON.
      metadata: '{"order":1}',
      session_metadata: { order: 1 },
      scraper_outputs: { name: 'Grace Hopper' },
      structured_output: { name: 'Grace Hopper' },
      final_message: 'All 5 steps succeeded',
      file_metadata: [],
    });
    const logs = (await waitForAsync(
      'logs',
      async () => (await client.retrieveSessionLogs(run.session_id)) ?? undefined,
      20_000,
    )) as unknown[];
    const names = logs.map((e) => SessionEvent.parse(e).event);
    expect(names[0]).toBe('SessionStarted');
    expect(names.at(-2)).toBe('RunCompleted');
    expect(names.at(-1)).toBe('SessionEnded');
    expect(names.filter((n) => n === 'ToolCallCompleted')).toHaveLength(5);
  });

  it('workflows.run with files (multipart) and a webhook both clients verify', async () => {
    const id = await createWorkflow(server, formWorkflow('with files'));
    const secret = ((await (await server.api('/api/webhooks/secret')).json()) as { secret: string }).secret;
    const before = hooks.received.length;
    const run = await client.workflows.run(id, {
      variables: { site: site.origin, name: 'Ada', size: 'large' },
      files: [{ filename: 'report.txt', content: REPORT_BYTES }],
      webhookUrl: hooks.url,
      metadata: '{"batch":"b7"}',
    });
    const status = await untilDone(client, run.session_id);
    expect(status).toMatchObject({
      success: true,
      scraper_outputs: { name: 'Ada', size: 'large', file: `report.txt (${REPORT_BYTES.length} bytes)` },
    });

    const all = await hooks.waitFor(before + 2);
    const final = await waitForAsync(
      'run.completed webhook',
      async () => hooks.received.slice(before).find((r) => r.body.includes('"run.completed"')),
      20_000,
    );
    expect(all.length).toBeGreaterThanOrEqual(before + 2);
    // Simplex's verifier, then the Standard Webhooks one, on the same delivery.
    expect(() => verifySimplexWebhook(final.body, final.headers, secret)).not.toThrow();
    expect(() => verifySimplexWebhook(final.body, final.headers, `${secret}x`)).toThrow(/Invalid webhook signature/);
    expect(() => verifySimplexWebhook(`${final.body} `, final.headers, secret)).toThrow(/Invalid webhook signature/);
    const event = WebhookEvent.parse(new Webhook(secret).verify(final.body, final.headers));
    expect(event).toMatchObject({
      type: 'run.completed',
      success: true,
      session_id: run.session_id,
      workflow_id: id,
      agent_response: 'All 12 steps succeeded',
      scraper_outputs: { name: 'Ada', size: 'large' },
      structured_output: { name: 'Ada', size: 'large' },
      metadata: '{"batch":"b7"}',
      session_metadata: { batch: 'b7' },
      file_metadata: [],
    });
    // screenshot_url is signed: it opens without the key, and its token opens nothing else.
    if (event.type !== 'run.completed') throw new Error('not run.completed');
    const shot = await fetch(event.screenshot_url!);
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/jpeg');
    const token = new URL(event.screenshot_url!).searchParams.get('token')!;
    expect(
      (await fetch(`${server.url}/api/session/${run.session_id}/events?token=${encodeURIComponent(token)}`)).status,
    ).toBe(401);
  });

  it('pause and resume a running flow through the client (external): no step runs while paused', async () => {
    // The second step waits until the page is ten seconds old: the pause lands while it runs, however
    // long a loaded host takes to see it start and to pause.
    const id = await createWorkflow(
      server,
      nameFlow('external pause', [
        { type: 'waitForExpression', expression: 'performance.now() > 10000', timeout: 30_000 },
      ]),
    );
    const run = await client.workflows.run(id, { variables: { site: site.origin, name: 'Paused Once' } });
    await waitForAsync(
      'step 2',
      async () =>
        (await eventsOf(run.session_id)).some((e) => e.event === 'ToolCallStarted' && e.step === 2) ? true : undefined,
      30_000,
    );
    const paused = await client.pause(run.session_id);
    expect(paused).toMatchObject({ succeeded: true, action: 'pause' });
    expect(paused.pause_key).toMatch(/^[0-9a-f-]{36}$/);
    // Pausing again answers the same pause.
    expect((await client.pause(run.session_id)).pause_key).toBe(paused.pause_key);
    const status = await client.getSessionStatus(run.session_id);
    expect(status).toMatchObject({
      in_progress: true,
      paused: true,
      paused_key: paused.pause_key,
      pause_type: 'external',
    });
    // The wait step ends (whenever a loaded host gets there); the flow then holds before step 3, which
    // the log's order proves once the run is done (step 3 starts after FlowResumed).
    await waitForAsync('the wait step to end', async () =>
      (await eventsOf(run.session_id)).filter((e) => e.event === 'ToolCallCompleted').length >= 2 ? true : undefined,
    );
    const held = await eventsOf(run.session_id);
    expect(held.filter((e) => e.event === 'ToolCallCompleted')).toHaveLength(2);
    expect(held.filter((e) => e.event === 'ToolCallStarted')).toHaveLength(2);
    expect(held.some((e) => e.event === 'FlowPaused' && e.pause_type === 'external')).toBe(true);

    const resumed = await client.resume(run.session_id);
    expect(resumed).toEqual({
      succeeded: true,
      action: 'resume_session',
      pause_type: 'external',
      key: paused.pause_key,
    });
    await expect(client.resume(run.session_id)).rejects.toThrow(/not paused/);
    expect(await untilDone(client, run.session_id)).toMatchObject({
      success: true,
      paused: false,
      scraper_outputs: { name: 'Paused Once' },
    });
    const log = await eventsOf(run.session_id);
    const resumedAt = log.findIndex((e) => e.event === 'FlowResumed');
    expect(resumedAt).toBeGreaterThan(-1);
    expect(log.findIndex((e) => e.event === 'ToolCallStarted' && e.step === 3)).toBeGreaterThan(resumedAt);
  });

  it('a flow with a pause step waits for a person (internal) and goes on when resumed through the client', async () => {
    const message = 'Type the code sent to your phone, then resume';
    const id = await createWorkflow(
      server,
      nameFlow('internal pause', [{ type: 'customStep', name: 'pause', parameters: { message } }]),
    );
    const before = hooks.received.length;
    const run = await client.workflows.run(id, {
      variables: { site: site.origin, name: 'Human Loop' },
      webhookUrl: hooks.url,
    });
    const status = await waitForAsync(
      'the pause step',
      async () => {
        const s = await client.getSessionStatus(run.session_id);
        return s.paused ? s : undefined;
      },
      30_000,
    );
    expect(status).toMatchObject({ in_progress: true, paused: true, pause_type: 'internal', pause_message: message });
    // The run.paused webhook carries the interactive live view and the message.
    const pausedHook = await waitForAsync(
      'run.paused webhook',
      async () => hooks.received.slice(before).find((r) => r.body.includes('"run.paused"')),
      20_000,
    );
    const pausedEvent = JSON.parse(pausedHook.body) as {
      data: { vnc_url: string; message: string; pause_key: string };
    };
    expect(pausedEvent.data).toMatchObject({ message, pause_key: status.paused_key });
    expect((await fetch(pausedEvent.data.vnc_url)).status).toBe(200);

    const resumed = await client.resume(run.session_id);
    expect(resumed).toMatchObject({ pause_type: 'internal', key: status.paused_key });
    expect(await untilDone(client, run.session_id)).toMatchObject({
      success: true,
      scraper_outputs: { name: 'Human Loop' },
    });
  });

  it('stores, lists and deletes a credential; a run types it and it is absent from everything returned', async () => {
    const value = `s3cret-${Math.random().toString(36).slice(2)}-value`;
    expect(await client.storeCredential('site_password', value)).toMatchObject({ succeeded: true });
    const listed = await client.listCredentials();
    expect(listed.credentials?.map((c) => c.name)).toContain('site_password');
    expect(JSON.stringify(listed)).not.toContain(value);

    const id = await createWorkflow(server, nameFlow('types a credential', [], '{{credentials.site_password}}'));
    const submissions = site.submissions.length;
    const before = hooks.received.length;
    const run = await client.workflows.run(id, { variables: { site: site.origin }, webhookUrl: hooks.url });
    const status = await untilDone(client, run.session_id);
    expect(status.success).toBe(true);
    // The page got the value; the extract that read it back reports the placeholder.
    expect(site.submissions[submissions]?.name).toBe(value);
    expect(status.scraper_outputs).toEqual({ name: '[credentials.site_password]' });
    const final = await waitForAsync(
      'webhook',
      async () => hooks.received.slice(before).find((r) => r.body.includes('"run.completed"')),
      20_000,
    );
    const everything = [
      JSON.stringify(status),
      await (await server.api(`/api/run_workflow_status?session_id=${run.session_id}`)).text(),
      await (await server.api(`/api/session/${run.session_id}/events?limit=1000`)).text(),
      JSON.stringify(
        await waitForAsync('logs', async () => (await client.retrieveSessionLogs(run.session_id)) ?? undefined, 20_000),
      ),
      ...hooks.received.slice(before).map((r) => r.body),
    ];
    expect(everything.join('\n')).not.toContain(value);
    expect(final.body).toContain('[credentials.site_password]');

    expect(await client.deleteCredential('site_password')).toMatchObject({ succeeded: true });
    expect((await client.listCredentials()).credentials?.map((c) => c.name)).not.toContain('site_password');
    // A run needing a credential that is gone is refused before anything starts.
    await expect(client.workflows.run(id, { variables: { site: site.origin } })).rejects.toThrow(
      /credential site_password/,
    );
  });

  it("retrieveSessionReplay returns the run's MP4; downloadSessionFiles of a run that downloaded nothing is a clear error", async () => {
    const id = await createWorkflow(server, nameFlow('artifacts'));
    const run = await client.workflows.run(id, { variables: { site: site.origin } });
    await untilDone(client, run.session_id);
    // Runs are recorded by default (RECORD_SESSIONS=runs): an MP4 starts with its ftyp box.
    const video = await client.retrieveSessionReplay(run.session_id);
    expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(video.length).toBeGreaterThan(1000);
    // The client reads binary answers as bytes, so it cannot show our message; plain HTTP can.
    // This run downloaded nothing, so there is no zip (test/artifacts.test.ts has one with files).
    await expect(client.downloadSessionFiles(run.session_id)).rejects.toThrow(WorkflowError);
    const files = await server.api(`/api/download_session_files?session_id=${run.session_id}`);
    expect(files.status).toBe(404);
    expect(((await files.json()) as { message: string }).message).toMatch(/has no downloaded files/);
  });

  it("a wrong key is the client's AuthenticationError path; an unknown session is a WorkflowError", async () => {
    const wrong = new SimplexClient({ apiKey: 'nope', baseURL: `${server.url}/api`, maxRetries: 0 });
    await expect(wrong.listCredentials()).rejects.toThrow(/API key missing or invalid/);
    await expect(client.getSessionStatus('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/Session not found/);
  });
});

/** What the Python client sends for its "form" calls: urlencoded, with the key header. */
const form = (path: string, fields: Record<string, string>) =>
  server.api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

describe("the Python client's extra calls, as plain HTTP", () => {
  it('run (urlencoded), events polling, editor_interrupt (the session stays live), active_session, close_workflow_session', async () => {
    const id = await createWorkflow(
      server,
      nameFlow('interrupted', [{ type: 'waitForExpression', expression: 'false', timeout: 60_000 }]),
    );
    const started = await form('/api/run_workflow', {
      workflow_id: id,
      variables: JSON.stringify({ site: site.origin }),
    });
    expect(started.status).toBe(200);
    const run = (await started.json()) as { session_id: string; logs_url: string };
    // Polling the events: pages that chain by next_index.
    await waitForAsync(
      'step 2',
      async () =>
        (await eventsOf(run.session_id)).some((e) => e.event === 'ToolCallStarted' && e.step === 2) ? true : undefined,
      30_000,
    );
    const first = (await (await server.api(`/api/session/${run.session_id}/events?since=0&limit=2`)).json()) as {
      events: { index: number }[];
      next_index: number;
      total: number;
      has_more: boolean;
    };
    expect(first.events.map((e) => e.index)).toEqual([0, 1]);
    expect(first).toMatchObject({ next_index: 2, has_more: true });
    const rest = (await (
      await server.api(`/api/session/${run.session_id}/events?since=${first.next_index}&limit=100`)
    ).json()) as { events: { index: number }[]; has_more: boolean };
    expect(rest.events[0]?.index).toBe(2);
    expect(rest.has_more).toBe(false);

    const active = (await (await server.api(`/api/workflow/${id}/active_session`)).json()) as {
      session_id: string;
      status: string;
    };
    expect(active).toMatchObject({ session_id: run.session_id, status: 'running' });

    const interrupted = await form('/api/editor_interrupt', { session_id: run.session_id });
    expect(interrupted.status).toBe(200);
    expect(await interrupted.json()).toMatchObject({ succeeded: true, session_id: run.session_id });
    const status = (await (await server.api(`/api/session/${run.session_id}/status`)).json()) as {
      in_progress: boolean;
      success: boolean;
      final_message: string;
    };
    expect(status).toMatchObject({ in_progress: false, success: false });
    expect(status.final_message).toMatch(/^Interrupted through the API after 1 of 6 steps/);
    // The session is left for a person.
    expect(((await (await server.api(`/api/sessions/${run.session_id}`)).json()) as { state: string }).state).toBe(
      'live',
    );
    expect(((await (await server.api(`/api/workflow/${id}/active_session`)).json()) as { status: string }).status).toBe(
      'live',
    );
    expect((await form('/api/editor_interrupt', { session_id: run.session_id })).status).toBe(409);

    const closed = await form('/api/close_workflow_session', { session_id: run.session_id });
    expect(await closed.json()).toMatchObject({ succeeded: true, session_id: run.session_id });
    expect(
      (await (await server.api(`/api/sessions/${run.session_id}`)).json()) as { state: string; end_reason: string },
    ).toMatchObject({ state: 'ended', end_reason: 'stopped' });
    // Closing again changes nothing.
    expect((await form('/api/close_workflow_session', { session_id: run.session_id })).status).toBe(200);
    const names = (await eventsOf(run.session_id)).map((e) => e.event);
    expect(names.slice(-2)).toEqual(['RunError', 'SessionEnded']);
  });
});
