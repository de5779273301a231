import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { RunStatusResponse, RunWorkflowResponse } from '../../contract/runs.ts';
import { SessionLogs, type SessionEvent } from '../../contract/sessionEvents.ts';
import { postJson, type TestServer } from './server.ts';

/** Store a workflow; its id. */
export async function createWorkflow(server: TestServer, body: unknown): Promise<string> {
  const res = await postJson(server, '/api/workflows', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** POST /api/run_workflow as a multipart form, as Simplex's clients send it. */
export async function runWorkflow(
  server: TestServer,
  fields: Record<string, string>,
  files: { name: string; bytes: Buffer }[] = [],
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of files) fd.append('files', new Blob([new Uint8Array(f.bytes)]), f.name);
  const res = await server.api('/api/run_workflow', { method: 'POST', body: fd });
  return { status: res.status, body: RunWorkflowResponse.parse(await res.json()) };
}

/** Poll the run's status until it is completed (bounded by `timeoutMs`). */
export async function untilCompleted(
  server: TestServer,
  sessionId: string,
  timeoutMs = 120_000,
): Promise<RunStatusResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.api(`/api/run_workflow_status?session_id=${sessionId}`);
    expect(res.status).toBe(200);
    const status = RunStatusResponse.parse(await res.json());
    if (status.completed) return status;
    if (Date.now() > deadline)
      throw new Error(`run ${sessionId} did not complete within ${timeoutMs} ms: ${status.status} ${status.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The ended session's whole log (retrieve_session_logs), waiting until the session has ended. */
export async function sessionLog(server: TestServer, sessionId: string, timeoutMs = 30_000): Promise<SessionEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await server.api(`/api/retrieve_session_logs/${sessionId}`);
    const { logs } = SessionLogs.parse(await res.json());
    if (logs) return logs;
    if (Date.now() > deadline) throw new Error(`session ${sessionId} did not end within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Store `flow` as a workflow named for its title (and a random suffix), run it and follow it to
 * its end; its final status and the session's whole log as JSON text.
 */
export async function runFlowToEnd(
  server: TestServer,
  flow: { title: string; [field: string]: unknown },
): Promise<{ status: RunStatusResponse; log: string }> {
  const workflow_id = await createWorkflow(server, { name: `${flow.title}_${randomBytes(4).toString('hex')}`, flow });
  const started = await runWorkflow(server, { workflow_id });
  expect(started.body.succeeded, started.body.message).toBe(true);
  const status = await untilCompleted(server, started.body.session_id!);
  return { status, log: JSON.stringify(await sessionLog(server, started.body.session_id!)) };
}
