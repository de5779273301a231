import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFormSite, type FormSite } from './fixtures/formSite.ts';
import { activeSession, askingWorkflow, postMessage, untilPaused } from './helpers/runMessages.ts';
import { createWorkflow, runWorkflow, sessionLog, untilCompleted } from './helpers/runs.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { CLI_PYTHON, runSimplexCli, SIMPLEX_PYTHON_DIR } from './helpers/simplexCli.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';
import { waitForAsync } from './helpers/wait.ts';

/**
 * Messages to a paused run (issue 39): the run's session has a message_url while it runs (from
 * active_session too); a message while it is paused resumes it, as the person's answer (kept in
 * the events, and in the pause's variable for later steps) or as {"flow_resume": key}; at any
 * other time it is a 409. Then Simplex's own CLI, `simplex send`, does the same.
 */

let server: TestServer;
let site: FormSite;
beforeAll(async () => {
  [server, site] = await Promise.all([startServer(), startFormSite()]);
});
afterAll(async () => {
  await closeLeavingNothing(server);
  await site?.close();
});

async function startAsking(name: string, before: unknown[] = []) {
  const workflowId = await createWorkflow(server, askingWorkflow(name, before));
  const run = await runWorkflow(server, { workflow_id: workflowId, variables: JSON.stringify({ site: site.origin }) });
  expect(run.status, run.body.message).toBe(200);
  return { workflowId, sessionId: run.body.session_id };
}

describe('messages to a run', () => {
  it('a message is refused while the run is not paused, answers the pause into its variable, flow_resume resumes, and an ended run takes none', async () => {
    // The page must be 8 s old before the first pause: a window in which the run runs, not paused.
    const { workflowId, sessionId } = await startAsking('asks for a name', [
      { type: 'waitForExpression', expression: 'performance.now() > 8000' },
    ]);
    const url = (await activeSession(server, workflowId)).message_url;
    expect(url).toMatch(new RegExp(`/api/session/${sessionId}/message\\?token=`));

    const running = await waitForAsync('a refusal while the run runs', async () => {
      const res = await postMessage(url!, { message: 'too early' });
      const body = (await res.json()) as { message?: string };
      return res.status === 409 && /running, not paused/.test(body.message ?? '') ? body : undefined;
    });
    expect(running.message).toMatch(/not waiting for anyone/);

    const first = await untilPaused(server, sessionId);
    expect(first).toMatchObject({ pause_type: 'internal', pause_message: 'Who is the order for?' });
    const answered = await postMessage(url!, { message: 'Ada Lovelace' });
    expect(answered.status, await answered.clone().text()).toBe(200);
    expect(await answered.json()).toEqual({ status: 'received' });

    const second = await untilPaused(server, sessionId, first.paused_key);
    expect(second.pause_message).toBe('Check the form, then resume');
    const resumed = await postMessage(url!, { flow_resume: second.paused_key });
    expect(resumed.status, await resumed.clone().text()).toBe(200);

    const done = await untilCompleted(server, sessionId);
    expect(done.status, done.message).toBe('succeeded');
    // The answer filled {{who}} in the later step: typed, submitted, read back.
    expect(done.outputs.name).toBe('Ada Lovelace');
    expect(site.submissions.at(-1)?.name).toBe('Ada Lovelace');
    // The step as reported keeps its placeholder.
    expect(done.results.find((r) => r.action === 'change')?.params.value).toBe('{{who}}');

    const log = await sessionLog(server, sessionId);
    const resumes = log.flatMap((e) => (e.event === 'FlowResumed' ? [e] : []));
    expect(resumes).toEqual([
      expect.objectContaining({ pause_key: first.paused_key, answer: 'Ada Lovelace' }),
      expect.objectContaining({ pause_key: second.paused_key }),
    ]);
    expect(resumes[1]).not.toHaveProperty('answer');

    const ended = await postMessage(url!, { message: 'anyone?' });
    expect(ended.status).toBe(409);
    expect(((await ended.json()) as { message: string }).message).toMatch(/not waiting for anyone: it has ended/);
  });

  it('a workflow may use a pause answer only after its pause, and not under a declared name', async () => {
    const body = askingWorkflow('answer misuse');
    const [navigate, ...rest] = body.flow.steps;
    const early = { ...body, flow: { ...body.flow, steps: [navigate, rest[1], ...rest] } };
    const res = await server.api('/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(early),
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/uses \{\{who\}\}, which the pause at step 3 answers only later/);
    const clash = { ...body, variables: [...body.variables, { name: 'who', type: 'string', required: false }] };
    const refused = await server.api('/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(clash),
    });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toMatch(/stores its answer in who, which is a declared variable/);
  });
});

if (SIMPLEX_PYTHON_DIR && !CLI_PYTHON)
  console.warn('runs.messages: the CLI test is skipped: no python3 has typer, rich and requests');

/** `simplex <args>` with Simplex's own CLI, pointed at Browserdesk by SIMPLEX_BASE_URL only. */
async function simplexCli(args: string[]): Promise<{ code: number | null; out: string }> {
  // A home of its own: the CLI must not read (or write) a developer's ~/.simplex.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-cli-home-'));
  try {
    const env = { HOME: home, SIMPLEX_API_KEY: server.apiKey, SIMPLEX_BASE_URL: `${server.url}/api` };
    const { code, output } = await runSimplexCli(args, { env, timeoutMs: 60_000 });
    return { code, out: output };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

describe.skipIf(!SIMPLEX_PYTHON_DIR || !CLI_PYTHON)("Simplex's CLI: simplex send", () => {
  it('answers a paused run by its workflow id; once the run has ended it finds nothing to send to', async () => {
    const { workflowId, sessionId } = await startAsking('answered from the CLI');
    const first = await untilPaused(server, sessionId);
    const answered = await simplexCli(['send', workflowId, 'Grace Hopper']);
    expect(answered.code, answered.out).toBe(0);
    expect(answered.out).toMatch(/Message sent/);

    const second = await untilPaused(server, sessionId, first.paused_key);
    const resumed = await simplexCli(['send', workflowId, 'looks right']);
    expect(resumed.code, resumed.out).toBe(0);
    const done = await untilCompleted(server, sessionId);
    expect(done.outputs.name).toBe('Grace Hopper');
    const log = await sessionLog(server, sessionId);
    expect(log.filter((e) => e.event === 'FlowResumed')).toEqual([
      expect.objectContaining({ pause_key: first.paused_key, answer: 'Grace Hopper' }),
      expect.objectContaining({ pause_key: second.paused_key, answer: 'looks right' }),
    ]);

    // The run has ended, its session with it: the CLI finds no session to send to.
    const late = await simplexCli(['send', workflowId, 'anyone?']);
    expect(late.code).toBe(1);
  });
});
