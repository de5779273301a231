import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SessionStatus } from '../contract/runControl.ts';
import { RunStatusResponse, RunWorkflowResponse, WebhookEvent } from '../contract/runs.ts';
import { EventsPage } from '../contract/sessionEvents.ts';
import { ViewCloseCode } from '../contract/viewer.ts';
import { startFormSite, type FormSite } from './fixtures/formSite.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';
import { waitForNoServiceProcesses } from './helpers/processes.ts';
import { postgresMode } from './helpers/testDatabase.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { ensureViewerBuilt } from './helpers/viewSession.ts';
import { waitForAsync } from './helpers/wait.ts';

// A full host queues runs instead of refusing them: one browser (MAX_SESSIONS=1), two places in
// the queue (MAX_QUEUED_RUNS=2), real sessions, a real site and a real webhook receiver.
let server: TestServer;
let site: FormSite;
let hooks: Receiver;
let workflowId: string;
beforeAll(async () => {
  ensureViewerBuilt();
  [server, site, hooks] = await Promise.all([
    startServer({ MAX_SESSIONS: '1', MAX_QUEUED_RUNS: '2' }),
    startFormSite(),
    startReceiver([200]),
  ]);
  const res = await postJson(server, '/api/workflows', {
    name: 'queued form',
    flow: {
      title: 'Open the form',
      steps: [
        { type: 'navigate', url: `${site.origin}/form` },
        { type: 'customStep', name: 'extract', parameters: { selectors: [['label[for=name]']], as: 'heading' } },
      ],
    },
  });
  expect(res.status).toBe(201);
  workflowId = (await res.json()).id;
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await hooks?.close();
});

async function runWorkflow() {
  const res = await server.api('/api/run_workflow', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflow_id: workflowId, webhook_url: hooks.url }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as unknown };
}

const runStatus = async (sessionId: string) =>
  RunStatusResponse.parse(await (await server.api(`/api/run_workflow_status?session_id=${sessionId}`)).json());
const sessionStatus = async (sessionId: string) =>
  SessionStatus.parse(await (await server.api(`/api/session/${sessionId}/status`)).json());
const eventsOf = async (sessionId: string) =>
  EventsPage.parse(await (await server.api(`/api/session/${sessionId}/events`)).json()).events;

/** How the vnc_url's stream answers: the close code and reason, or 'open' when it carries RFB. */
function streamAnswer(vncUrl: string): Promise<{ code: number; reason: string } | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(vncUrl.replace(/^http/, 'ws'));
    ws.once('message', () => {
      resolve('open');
      ws.close();
    });
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.once('error', reject);
  });
}

const completedEvents = (sessionId: string) =>
  hooks.received
    .map((r) => WebhookEvent.parse(JSON.parse(r.body)))
    .filter((e) => e.type === 'run.completed' && e.data.session_id === sessionId);

describe('runs on a full host', () => {
  it('queue in order, say so in status, events and the live view, start when a browser frees, and 429 only when the queue is full', async () => {
    const holder = await postJson(server, '/api/create_workflow_session', { workflow_name: 'holds the only browser' });
    expect(holder.status).toBe(200);
    const holderId = ((await holder.json()) as { session_id: string }).session_id;

    const first = await runWorkflow();
    expect(first.status).toBe(200);
    const a = RunWorkflowResponse.parse(first.json);
    expect(a.succeeded).toBe(true);
    expect(a.message).toMatch(/^Queued at position 1/);
    const second = RunWorkflowResponse.parse((await runWorkflow()).json);
    expect(second.message).toMatch(/^Queued at position 2/);

    const third = await runWorkflow();
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('5');
    expect(third.json).toMatchObject({ error: 'too_many_requests' });

    // Status, Simplex's status and the event log all say queued, with the place.
    expect(await runStatus(a.session_id)).toMatchObject({
      status: 'queued',
      completed: false,
      succeeded: false,
      queue_position: 1,
    });
    expect(await runStatus(second.session_id)).toMatchObject({ status: 'queued', queue_position: 2 });
    expect(await sessionStatus(a.session_id)).toMatchObject({
      in_progress: true,
      success: null,
      queued: true,
      queue_position: 1,
    });
    expect((await eventsOf(a.session_id)).map((e) => [e.event, 'position' in e ? e.position : undefined])).toEqual([
      ['RunQueued', 1],
    ]);

    // The live view's page is served; its stream says "waiting" with the place, and a wrong token is still refused.
    const page = await fetch(a.vnc_url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await streamAnswer(a.vnc_url)).toEqual({ code: ViewCloseCode.waiting, reason: 'queued 1' });
    expect(await streamAnswer(a.vnc_url.replace(/token=[^&]+/, 'token=wrong'))).toEqual({
      code: ViewCloseCode.unauthorized,
      reason: 'unauthorized',
    });

    // Closing a queued run's session takes it out of the queue: the run fails, its webhook says so, its log ends.
    const closed = await postJson(server, '/api/close_workflow_session', { session_id: second.session_id });
    expect(closed.status).toBe(200);
    const cancelled = await runStatus(second.session_id);
    expect(cancelled).toMatchObject({ status: 'failed', completed: true, queue_position: null });
    expect(cancelled.message).toMatch(/^The run did not start: The session was ended while it waited/);
    expect((await eventsOf(second.session_id)).map((e) => e.event)).toEqual(['RunQueued', 'RunError', 'SessionEnded']);
    await waitForAsync("the cancelled run's webhook", () => completedEvents(second.session_id)[0]);

    // The browser frees: the first queued run starts in the session it was promised, and succeeds.
    expect((await server.api(`/api/sessions/${holderId}`, { method: 'DELETE' })).status).toBe(200);
    // While its browser starts, the live view keeps waiting (never "unauthorized", which would end
    // it for good), then carries the session's screen.
    const answers: Awaited<ReturnType<typeof streamAnswer>>[] = [];
    await waitForAsync(
      'the live view to connect',
      async () => {
        const answer = await streamAnswer(a.vnc_url);
        answers.push(answer);
        return answer === 'open' ? true : undefined;
      },
      60_000,
    );
    expect(answers.filter((x) => x !== 'open' && x.code !== ViewCloseCode.waiting)).toEqual([]);
    const done = await waitForAsync(
      'the queued run to finish',
      async () => {
        const s = await runStatus(a.session_id);
        return s.completed ? s : undefined;
      },
      60_000,
    );
    expect(done).toMatchObject({ status: 'succeeded', outputs: { heading: 'Name' }, queue_position: null });
    expect(await streamAnswer(a.vnc_url)).toEqual({ code: ViewCloseCode.unauthorized, reason: 'unauthorized' });
    const events = (await eventsOf(a.session_id)).map((e) => e.event);
    // Queued, then its browser starting (what the run page shows between the two), then live and under way.
    expect(events.slice(0, 2)).toEqual(['RunQueued', 'RunStarting']);
    expect(events.indexOf('RunStarting')).toBeLessThan(events.indexOf('SessionStarted'));
    expect(events.indexOf('SessionStarted')).toBeLessThan(events.indexOf('RunStarted'));
    expect(events.slice(-2)).toEqual(['RunCompleted', 'SessionEnded']);
    const hook = await waitForAsync("the queued run's webhook", () => completedEvents(a.session_id)[0]);
    expect(hook).toMatchObject({ data: { outcome: 'succeeded' } });
    expect(completedEvents(a.session_id)).toHaveLength(1);
  });

  // SQLite: one node, whose queue lives in its process. Postgres: the queue is the store's, shared
  // by every node, and a stop loses nothing in it.
  const afterRestart = postgresMode()
    ? {
        title: 'a run queued when the server stops waits in the shared queue and runs after the restart',
        outcome: 'succeeded' as const,
      }
    : {
        title: 'a run queued when the server stops fails with its webhook, and leaves no process behind',
        outcome: 'failed' as const,
      };
  it(
    afterRestart.title,
    async () => {
      const other = await startServer({ MAX_SESSIONS: '1' });
      const receiver = await startReceiver([200]);
      try {
        const wf = await postJson(other, '/api/workflows', {
          name: 'q',
          flow: { title: 't', steps: [{ type: 'navigate', url: `${site.origin}/form` }] },
        });
        const id = ((await wf.json()) as { id: string }).id;
        expect((await postJson(other, '/api/create_workflow_session', { workflow_name: 'holder' })).status).toBe(200);
        const res = await postJson(other, '/api/run_workflow', { workflow_id: id, webhook_url: receiver.url });
        const queued = RunWorkflowResponse.parse(await res.json());
        expect(queued.message).toMatch(/^Queued/);
        await other.close();
        expect(await waitForNoServiceProcesses(other.dataDir)).toEqual([]);
        const restarted = await startServer({ MAX_SESSIONS: '1' }, other.dataDir);
        try {
          const status = await waitForAsync(
            'the queued run to end',
            async () => {
              const s = RunStatusResponse.parse(
                await (await restarted.api(`/api/run_workflow_status?session_id=${queued.session_id}`)).json(),
              );
              return s.completed ? s : undefined;
            },
            60_000,
          );
          expect(status).toMatchObject({ status: afterRestart.outcome, completed: true });
          const hook = await waitForAsync('the webhook of the queued run', () =>
            receiver.received
              .map((r) => WebhookEvent.parse(JSON.parse(r.body)))
              .find((e) => e.type === 'run.completed' && e.data.session_id === queued.session_id),
          );
          expect(hook).toMatchObject({ data: { outcome: afterRestart.outcome } });
        } finally {
          await restarted.close();
        }
        expect(await waitForNoServiceProcesses(other.dataDir)).toEqual([]);
      } finally {
        await receiver.close();
      }
    },
    90_000,
  );
});
