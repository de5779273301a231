import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { RunWorkflowFields, type RunStatusResponse, type RunWorkflowResponse, type StepResult } from '../../contract/runs.ts';
import type { Flow } from '../../contract/workflows.ts';
import type { LiveSession, SessionManager } from '../browser/types.ts';
import { puppeteerTransport } from '../browser/cdp/puppeteerTransport.ts';
import { handUploads } from './handUploads.ts';
import { AppError, invalid, parseOr422 } from '../http/errors.ts';
import { runsRepo, type RunRow } from '../store/runs.ts';
import { webhookUrlIssue } from '../webhooks/destination.ts';
import { replayFlow } from './engine.ts';
import { failInterruptedRuns } from './interruptedRuns.ts';
import { toWorkflow } from './records.ts';
import type { RunForm } from './uploads.ts';
import { filesNeeded, fillPlaceholders, resolveVariables } from './variables.ts';

/** A validated run, ready to start: nothing has been started yet. */
export interface PreparedRun {
  runId: string;
  workflowId: string;
  flow: Flow;
  totalActions: number;
  filesDir: string;
  metadata?: string;
  webhookUrl?: string;
}

/** The response and status of a run_workflow call; starts and finishes runs in the background. */
export class RunService {
  private readonly repo;
  /** Runs under way: aborted and awaited on server close. */
  private readonly active = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(private readonly app: FastifyInstance) {
    this.repo = runsRepo(app.db);
  }

  /** Called once before requests are taken: fail what a previous process left running, with its webhook. */
  recoverInterrupted(): Promise<number> {
    return failInterruptedRuns({
      repo: this.repo,
      enqueue: (url, event) => this.app.webhooks.enqueue(url, event),
      runDir: (id) => this.runDir(id),
      log: this.app.log,
    });
  }

  runDir(runId: string): string {
    return path.join(this.app.config.dataDir, 'runs', runId);
  }

  /** Every check the request can fail, before anything starts; a failure is a 4xx naming the field. */
  async prepare(runId: string, form: RunForm): Promise<PreparedRun> {
    const fields = parseOr422(RunWorkflowFields, form.fields);
    const row = this.app.store.workflows.get(fields.workflow_id);
    if (!row) {
      throw new AppError(404, ErrorCode.notFound, 'Workflow not found: no saved workflow has this workflow_id', [
        { path: 'workflow_id', message: 'no workflow with this id' },
      ]);
    }
    const workflow = toWorkflow(row);
    const given = fields.variables ? (JSON.parse(fields.variables) as Record<string, unknown>) : {};
    const { values, issues } = resolveVariables(workflow.variables, given);
    for (const need of filesNeeded(workflow.flow)) {
      if (!form.files.includes(need.file)) {
        issues.push({ path: 'files', message: `step ${need.index} (uploadFile) needs a file named ${need.file}` });
      }
    }
    const webhookIssue = fields.webhook_url ? await webhookUrlIssue(fields.webhook_url, this.app.config.WEBHOOK_ALLOW_PRIVATE) : null;
    if (webhookIssue) issues.push(webhookIssue);
    if (issues.length) throw invalid(issues);
    return {
      runId,
      workflowId: workflow.id,
      flow: fillPlaceholders(workflow.flow, values),
      totalActions: workflow.flow.steps.length,
      filesDir: this.runDir(runId),
      metadata: fields.metadata,
      webhookUrl: fields.webhook_url,
    };
  }

  /**
   * Start a session and the replay in it; resolves as soon as the run is under way. A session that
   * cannot start is a failed run (503, succeeded false); over MAX_SESSIONS stays the sessions' 429.
   */
  async start(run: PreparedRun): Promise<{ status: 200 | 503; body: RunWorkflowResponse }> {
    const sessions = (this.app as FastifyInstance & { sessions?: SessionManager }).sessions;
    let created;
    try {
      if (!sessions) throw new Error('browser sessions are not available on this server');
      created = await sessions.create({ workflowId: run.workflowId, timeoutSeconds: 1200, proxies: false });
    } catch (err) {
      this.removeFiles(run);
      if (err instanceof AppError && err.status === 429) throw err;
      const message = `The run could not start: ${err instanceof Error ? err.message : 'the browser did not start'}`;
      const sessionId = randomUUID();
      this.repo.insert({ id: run.runId, session_id: sessionId, workflow_id: run.workflowId, status: 'failed', message, total_actions: run.totalActions, metadata: run.metadata ?? null, webhook_url: run.webhookUrl ?? null });
      return { status: 503, body: { succeeded: false, message, session_id: sessionId, vnc_url: '' } };
    }
    const { session, tokens } = created;
    this.repo.insert({ id: run.runId, session_id: session.id, workflow_id: run.workflowId, status: 'running', message: 'Running', total_actions: run.totalActions, metadata: run.metadata ?? null, webhook_url: run.webhookUrl ?? null });
    const common = { session_id: session.id, workflow_id: run.workflowId, webhook_url: run.webhookUrl, metadata: run.metadata };
    this.app.bus.emit('run.started', common);
    this.app.bus.emit('session.changed', { session_id: session.id });

    const abort = new AbortController();
    const offEnd = sessions!.onEnd(session.id, () => abort.abort());
    const done = this.execute(run, session, abort.signal, sessions!, offEnd).finally(() => this.active.delete(run.runId));
    this.active.set(run.runId, { abort, done });
    const vncUrl = `${this.app.publicUrl()}/s/${session.id}/vnc?token=${encodeURIComponent(tokens.control)}`;
    return { status: 200, body: { succeeded: true, message: `Run started: ${run.totalActions} steps`, session_id: session.id, vnc_url: vncUrl } };
  }

  private async execute(run: PreparedRun, session: LiveSession, signal: AbortSignal, sessions: SessionManager, offEnd: () => void): Promise<void> {
    const sessionId = session.id;
    const results: StepResult[] = [];
    const outcome = await replayFlow({
      connect: async () => ({ transport: await puppeteerTransport(session.hub) }),
      flow: run.flow,
      // The browser runs as the session's user: it can read the files only once they are in its own folder.
      filesDir: handUploads(run.filesDir, session),
      signal,
      onStep: (index, result, outputs) => {
        results.push(result);
        this.repo.progress(run.runId, results, outputs);
        this.app.bus.emit('run.step', { session_id: sessionId, index });
      },
    });
    offEnd();
    this.removeFiles(run);
    // The session ends before the run reads as completed, so a caller polling status sees both.
    await sessions.end(sessionId, 'completed').catch((err: unknown) => this.app.log.error({ err }, 'ending a run\'s session failed'));
    this.repo.complete(run.runId, {
      status: outcome.succeeded ? 'succeeded' : 'failed',
      message: outcome.message,
      results: outcome.results,
      outputs: outcome.outputs,
      screenshot: outcome.screenshot,
    });
    this.app.bus.emit('run.completed', {
      session_id: sessionId,
      workflow_id: run.workflowId,
      succeeded: outcome.succeeded,
      message: outcome.message,
      outputs: outcome.outputs,
      webhook_url: run.webhookUrl,
      metadata: run.metadata,
    });
    this.app.bus.emit('session.changed', { session_id: sessionId });
  }

  removeFiles(run: { filesDir: string }): void {
    fs.rmSync(run.filesDir, { recursive: true, force: true });
  }

  status(sessionId: string): RunStatusResponse | undefined {
    const row = this.repo.getBySession(sessionId);
    return row && toStatus(row);
  }

  /** Stop every run (server closing): each fails, ends its session and is recorded. */
  async closeAll(): Promise<void> {
    for (const { abort } of this.active.values()) abort.abort();
    await Promise.all([...this.active.values()].map((r) => r.done));
  }
}

function toStatus(row: RunRow): RunStatusResponse {
  const completed = row.status !== 'running';
  return {
    succeeded: row.status === 'succeeded',
    completed,
    status: row.status,
    message: row.message,
    results: JSON.parse(row.results) as StepResult[],
    total_actions: row.total_actions,
    session_id: row.session_id,
    workflow_id: row.workflow_id,
    completed_at: row.completed_at,
    outputs: JSON.parse(row.outputs) as Record<string, string>,
    screenshot: row.screenshot ? `data:image/jpeg;base64,${row.screenshot.toString('base64')}` : null,
  };
}
