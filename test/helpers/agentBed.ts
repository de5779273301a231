import { afterAll, beforeAll, expect } from 'vitest';
import { AgentState, StartEditorSessionResponse } from '../../contract/agent.ts';
import { SessionEvent } from '../../contract/sessionEvents.ts';
import { startAgentSite, type AgentSite } from '../fixtures/agentSite.ts';
import { startFakeModel, type FakeModel } from './fakeModel.ts';
import { postJson, startServer, type TestServer } from './server.ts';
import { runWorkflow, untilCompleted } from './runs.ts';
import { waitForAsync } from './wait.ts';

/** What the agent's tests run against: the real server, the fake model as its writer, and the agent's local site. */
export interface AgentBed {
  server: TestServer;
  fake: FakeModel;
  site: AgentSite;
}

/**
 * Start the bed before the calling file's tests and end it after them (call at the file's top
 * level). The model is not retried, so a scripted failure is seen at once.
 */
export function agentBed(): AgentBed {
  const bed = {} as AgentBed;
  beforeAll(async () => {
    bed.fake = await startFakeModel();
    bed.server = await startServer(bed.fake.env('openai-compatible', { MODEL_MAX_RETRIES: '0' }));
    bed.site = await startAgentSite();
  });
  afterAll(async () => {
    await bed.server?.discard();
    await bed.site?.close();
    await bed.fake?.close();
  });
  return bed;
}

/** An agent's turn ended (done, replied, failed or interrupted). */
export const turnEnded = (e: SessionEvent) =>
  (e.event === 'RunCompleted' || e.event === 'RunError') && e.agent === true;

/** The calls the agent's tests make on the bed's server, each checked for its status where it must succeed. */
export function editorCalls(bed: AgentBed) {
  async function startEditor(name: string, path: string, testData?: Record<string, string>) {
    const res = await postJson(bed.server, '/api/start_editor_session', {
      name,
      url: `${bed.site.origin}${path}`,
      ...(testData ? { test_data: testData } : {}),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return StartEditorSessionResponse.parse(await res.json());
  }

  async function events(id: string): Promise<SessionEvent[]> {
    const res = await bed.server.api(`/api/session/${id}/events?limit=1000`);
    return ((await res.json()) as { events: unknown[] }).events.map((e) => SessionEvent.parse(e));
  }

  /** Wait until the log has an event `match` accepts after `since` events; the log so far. */
  async function until(id: string, what: string, match: (e: SessionEvent) => boolean, timeoutMs = 30_000) {
    return waitForAsync(
      what,
      async () => {
        const log = await events(id);
        return log.some(match) ? log : undefined;
      },
      timeoutMs,
    );
  }

  async function send(message: string | object, url: string, headers: Record<string, string> = {}) {
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': bed.server.apiKey, ...headers },
      body: JSON.stringify(typeof message === 'string' ? { message } : message),
    });
  }

  async function state(id: string) {
    const res = await bed.server.api(`/api/session/${id}/agent`);
    expect(res.status).toBe(200);
    return AgentState.parse(await res.json());
  }

  const close = (id: string) => postJson(bed.server, '/api/close_workflow_session', { session_id: id });
  return { startEditor, events, until, send, state, close };
}

/**
 * Run a workflow the agent recorded with every model request refused, and check it succeeded
 * without asking the model; its run's log.
 */
export async function replayWithoutModel(bed: AgentBed, workflowId: string): Promise<SessionEvent[]> {
  bed.fake.reset();
  bed.fake.fallback = { kind: 'status', status: 500 };
  try {
    const run = await runWorkflow(bed.server, { workflow_id: workflowId });
    expect(run.status).toBe(200);
    const status = await untilCompleted(bed.server, run.body.session_id!);
    expect(status.succeeded, status.message).toBe(true);
    expect(bed.fake.requests).toHaveLength(0);
    return await editorCalls(bed).events(run.body.session_id!);
  } finally {
    bed.fake.fallback = { kind: 'reply', text: 'ok' };
  }
}
