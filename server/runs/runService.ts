import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  healRequested,
  isUnfinished,
  RunWorkflowFields,
  type RunStatus,
  type RunStatusResponse,
  type RunSummary,
  type RunWorkflowResponse,
  type StepResult,
} from '../../contract/runs.ts';
import { credentialNamesOf } from '../../contract/placeholders.ts';
import type { LiveSession } from '../sessions/types.ts';
import type { Config } from '../config.ts';
import type { Artifacts } from '../artifacts/service.ts';
import type { CredentialsService } from '../credentials/service.ts';
import type { BusEvents } from '../events/bus.ts';
import type { SessionEventLog } from '../sessionEvents/log.ts';
import type { WorkflowsRepo } from '../store/workflows.ts';
import type { WebhookDispatcher } from '../webhooks/dispatcher.ts';
import type { WorkflowService } from '../workflows/workflowService.ts';
import { handUploads } from './handUploads.ts';
import { AtCapacity, Conflict, Invalid, NotFound } from '../domain/errors.ts';
import { pageOf, type Page } from '../domain/pages.ts';
import { parseOrInvalid } from '../domain/parse.ts';
import { outputsOf, runsRepo, stepResultsOf, type RunRow } from '../store/runs.ts';
import type { Sql } from '../store/sql.ts';
import { sessionsRepo } from '../store/sessions.ts';
import { webhookUrlIssue } from '../webhooks/destination.ts';
import { workflowFieldsOf } from '../webhooks/fromBus.ts';
import { runContained } from './engine/containedRun.ts';
import type { FlowOutcome } from './engine/replay.ts';
import { PauseGate, type PauseState } from './pauseGate.ts';
import {
  failInterruptedRuns,
  INTERRUPTED_MESSAGE,
  NODE_LOST_MESSAGE,
  type InterruptedRunsDeps,
} from './interruptedRuns.ts';
import { LocalRunQueue } from './queue/localRunQueue.ts';
import type { RunQueue, RunQueueDeps, RunQueueHost } from './queue/runQueue.ts';
import { sessionOf, type PreparedRun } from './preparedRun.ts';
import { SharedRunQueue } from './queue/sharedRunQueue.ts';
import { toWorkflow } from '../workflows/records.ts';
import type { RunForm } from './uploads.ts';
import type { StopReason } from './stepFailure.ts';
import type { RunAi } from './ai.ts';
import { filesNeeded, fillPlaceholders, resolveVariables } from './variables.ts';

/** A run under way, by its session. */
interface ActiveRun {
  runId: string;
  workflowId: string;
  abort: AbortController;
  done: Promise<void>;
  gate: PauseGate;
  /** The interactive live view, for the person a pause waits for. */
  vncUrl: string;
  webhookUrl?: string;
  metadata?: string;
  /** Stopped through editor_interrupt: the session stays live for a person. */
  interrupted: boolean;
}

/** What runs are built from: each service only for what a run does with it. */
export interface RunServiceDeps extends RunQueueDeps {
  config: RunQueueDeps['config'] &
    Pick<Config, 'dataDir' | 'DATABASE_URL' | 'BROWSER_ALLOW_PRIVATE_NETWORKS' | 'WEBHOOK_ALLOW_PRIVATE'>;
  /** Saved workflows' rows, read when a run is prepared. */
  workflowRows: Pick<WorkflowsRepo, 'get'>;
  workflows: Pick<WorkflowService, 'runFactsOf'>;
  credentials: Pick<CredentialsService, 'missing' | 'revealForRun'>;
  webhooks: Pick<WebhookDispatcher, 'enqueue'>;
  sessionEvents: Pick<SessionEventLog, 'append'>;
  artifacts: Pick<Artifacts, 'files'>;
}

/** How a run_workflow call went: started now, queued for a browser, or not started (its browser failed; recorded as a failed run). */
export interface RunStart {
  outcome: 'started' | 'queued' | 'not_started';
  response: RunWorkflowResponse;
}

/** Refusals of the run-control calls: the session has no run under way, or it is not paused. */
const noRun = () =>
  new Conflict('No run is under way in this session: pause, resume and interrupt act on a running workflow');

/** The response and status of a run_workflow call; starts and finishes runs in the background. */
export class RunService implements RunQueueHost {
  private readonly repo;
  private readonly sessionRows;
  /** Where runs wait for a browser: this process on SQLite, the store every node shares on Postgres. */
  readonly queue: RunQueue;
  /** Runs under way, by session id: aborted and awaited on server close. */
  private readonly active = new Map<string, ActiveRun>();
  /** The engine thread's entry (engine/thread.mjs); a test sets one that fails on purpose. */
  engineEntry: URL | undefined;
  /** Set by useAi(): the agent's RunAi. The agent is built after runs (it runs workflows itself), so it is handed over later. */
  private runAi: RunAi | undefined;

  constructor(private readonly deps: RunServiceDeps) {
    this.repo = runsRepo(deps.db, deps.config.nodeId);
    this.sessionRows = sessionsRepo(deps.db, deps.config.nodeId);
    this.queue = deps.config.DATABASE_URL
      ? new SharedRunQueue(deps, this, deps.config.DATABASE_URL)
      : new LocalRunQueue(deps, this);
  }

  /**
   * Called once before requests are taken: the runs this node took from the queue but never started
   * go back into it, then what a previous process of this node left unfinished fails, with its
   * webhook. The node takes queued runs only once its first heartbeat is in (app.ts): before it,
   * other nodes count it dead and would reap what it takes.
   */
  async recoverInterrupted(): Promise<number> {
    await this.queue.start();
    const rows = await failInterruptedRuns(
      this.interruptedDeps((message) => this.repo.failUnfinished({ node: 'self' }, message)),
      INTERRUPTED_MESSAGE,
    );
    if (rows.length)
      this.deps.log.warn(
        `${rows.length} run(s) were interrupted when the previous process stopped; they are marked failed`,
      );
    await this.queue.forgetFinished();
    return rows.length;
  }

  /** Put back the runs nodes silent since `deadBefore` took but never started, and fail their other unfinished runs, with their webhooks (cluster/reaper.ts). */
  async failOfDeadNodes(deadBefore: number): Promise<number> {
    await this.queue.requeueOfDeadNodes(deadBefore);
    const failed = (
      await failInterruptedRuns(
        this.interruptedDeps((message) => this.repo.failUnfinished({ deadBefore }, message)),
        NODE_LOST_MESSAGE,
      )
    ).length;
    await this.queue.forgetFinished();
    return failed;
  }

  private interruptedDeps(claim: InterruptedRunsDeps['claim']): InterruptedRunsDeps {
    return {
      claim,
      // The run's workflow fields (typed outputs, its metadata) are added here: interruptedRuns.ts builds the event from the run row alone.
      enqueue: async (url, event) =>
        this.deps.webhooks.enqueue(
          url,
          event.type === 'run.completed'
            ? {
                ...event,
                ...workflowFieldsOf(event.scraper_outputs, await this.deps.workflows.runFactsOf(event.workflow_id)),
              }
            : event,
        ),
      runDir: (id) => this.runDir(id),
      record: (sessionId, message, outputs) =>
        this.deps.sessionEvents.append(sessionId, { event: 'RunError', message, outputs }),
      // On a dead node's runs, only what reached this node's disk (its own artifacts are on its host).
      files: (sessionId) => this.deps.urls.fileMetadata(sessionId, this.deps.artifacts.files(sessionId)),
    };
  }

  /** The model runs use for AI steps and self-healing, from whoever builds it (the agent); undefined: none. */
  useAi(ai: RunAi | undefined): void {
    this.runAi = ai;
  }

  runDir(runId: string): string {
    return path.join(this.deps.config.dataDir, 'runs', runId);
  }

  /** Every check the request can fail, before anything starts; a failure is a 4xx naming the field. */
  async prepare(runId: string, form: RunForm): Promise<PreparedRun> {
    const fields = parseOrInvalid(RunWorkflowFields, form.fields);
    const row = await this.deps.workflowRows.get(fields.workflow_id);
    if (!row) {
      throw new NotFound('Workflow', 'no saved workflow has this workflow_id', [
        { path: 'workflow_id', message: 'no workflow with this id' },
      ]);
    }
    const workflow = toWorkflow(row);
    const given = fields.variables ? (JSON.parse(fields.variables) as Record<string, unknown>) : {};
    const { values, issues } = resolveVariables(workflow.variables, given);
    for (const need of filesNeeded(workflow.flow)) {
      if (!form.files.includes(need.file)) {
        issues.push({ path: 'files', message: `step ${need.index + 1} (uploadFile) needs a file named ${need.file}` });
      }
    }
    const credentials = credentialNamesOf(workflow.flow);
    for (const name of await this.deps.credentials.missing(credentials)) {
      issues.push({
        path: 'workflow_id',
        message: `the workflow types {{credentials.${name}}} but no credential ${name} is stored: add it in Settings or with store_credential`,
      });
    }
    const webhookIssue = fields.webhook_url
      ? await webhookUrlIssue(fields.webhook_url, this.deps.config.WEBHOOK_ALLOW_PRIVATE)
      : null;
    if (webhookIssue) issues.push(webhookIssue);
    if (issues.length) throw new Invalid(issues);
    return {
      runId,
      workflowId: workflow.id,
      flow: fillPlaceholders(workflow.flow, values),
      credentials,
      totalActions: workflow.flow.steps.length,
      filesDir: this.runDir(runId),
      metadata: fields.metadata,
      webhookUrl: fields.webhook_url,
      heal: healRequested(fields),
    };
  }

  /**
   * Start a session and the replay in it; resolves as soon as the run is under way. On a full host
   * the run is queued instead and starts when a browser frees (429 only when the queue is full).
   * A session that cannot start is a failed run (503, succeeded false).
   */
  async start(run: PreparedRun): Promise<RunStart> {
    if (this.deps.sessions.active >= this.deps.config.MAX_SESSIONS)
      return { outcome: 'queued', response: await this.queue.enqueue(run) };
    let created;
    try {
      created = await this.deps.sessions.create(sessionOf(run));
    } catch (err) {
      // Another request took the last slot between the check and the create.
      if (err instanceof AtCapacity) return { outcome: 'queued', response: await this.queue.enqueue(run) };
      this.removeFiles(run);
      const message = `The run could not start: ${err instanceof Error ? err.message : 'the browser did not start'}`;
      const sessionId = randomUUID();
      await this.repo.insert({
        id: run.runId,
        session_id: sessionId,
        workflow_id: run.workflowId,
        status: 'failed',
        message,
        total_actions: run.totalActions,
        metadata: run.metadata ?? null,
        webhook_url: run.webhookUrl ?? null,
      });
      return {
        outcome: 'not_started',
        response: { succeeded: false, message, session_id: sessionId, vnc_url: '', logs_url: '' },
      };
    }
    const { session, tokens } = created;
    await this.repo.insert({
      id: run.runId,
      session_id: session.id,
      workflow_id: run.workflowId,
      status: 'running',
      message: 'Running',
      total_actions: run.totalActions,
      metadata: run.metadata ?? null,
      webhook_url: run.webhookUrl ?? null,
    });
    const vncUrl = this.deps.urls.vnc(session.id, tokens.control);
    this.replay(run, session, vncUrl);
    return {
      outcome: 'started',
      response: {
        succeeded: true,
        message: `Run started: ${run.totalActions} steps`,
        session_id: session.id,
        vnc_url: vncUrl,
        logs_url: this.deps.urls.logs(session.id),
      },
    };
  }

  async recordQueued(
    run: PreparedRun,
    queued: { sessionId: string; position: number; message: string; owner?: string },
    sql: Sql = this.deps.db,
  ): Promise<void> {
    const row = {
      id: run.runId,
      session_id: queued.sessionId,
      workflow_id: run.workflowId,
      status: 'queued' as const,
      message: queued.message,
      total_actions: run.totalActions,
      metadata: run.metadata ?? null,
      webhook_url: run.webhookUrl ?? null,
    };
    await runsRepo(sql, this.deps.config.nodeId).insert(row, queued.owner);
  }

  /** A queued run's session is live: the run is marked started and replays in it. */
  async begin(run: PreparedRun, session: LiveSession, vncUrl: string): Promise<void> {
    if (!(await this.repo.markStarted(run.runId))) {
      // No longer queued: failed meanwhile (a node that counted this one dead reaped it). It stays failed.
      this.deps.log.warn(
        { session_id: session.id },
        'a queued run was failed while its browser started; its session ends',
      );
      this.removeFiles(run);
      await this.deps.sessions.end(session.id, 'stopped');
      return;
    }
    this.replay(run, session, vncUrl);
  }

  /** A queued run whose session never became live (ended while waiting, failed to start, server closing). */
  async failUnstarted(run: PreparedRun, sessionId: string, err: unknown): Promise<void> {
    this.removeFiles(run);
    const message = `The run did not start: ${err instanceof Error ? err.message : 'its browser did not start'}`;
    await this.repo.complete(run.runId, { status: 'failed', message, results: [], outputs: {}, screenshot: null });
    await this.tellCompleted(run, sessionId, {
      succeeded: false,
      message,
      outputs: {},
      steps_run: 0,
      screenshot_url: null,
      file_metadata: [],
    });
    // A session that never existed has no SessionEnded of its own; its log ends here.
    if (!(await this.sessionRows.get(sessionId)))
      this.deps.sessionEvents.append(sessionId, { event: 'SessionEnded', reason: 'stopped' });
  }

  /** Run the flow in a live session, in the background. */
  private replay(run: PreparedRun, session: LiveSession, vncUrl: string): void {
    const abort = new AbortController();
    const active: ActiveRun = {
      runId: run.runId,
      workflowId: run.workflowId,
      abort,
      done: Promise.resolve(),
      gate: new PauseGate(),
      vncUrl,
      webhookUrl: run.webhookUrl,
      metadata: run.metadata,
      interrupted: false,
    };
    this.active.set(session.id, active);
    this.deps.bus.emit('run.started', {
      session_id: session.id,
      workflow_id: run.workflowId,
      total_actions: run.totalActions,
      webhook_url: run.webhookUrl,
      metadata: run.metadata,
    });
    this.deps.bus.emit('session.changed', { session_id: session.id });

    const offEnd = this.deps.sessions.onEnd(session.id, (reason) =>
      abort.abort(reason satisfies StopReason | undefined),
    );
    active.done = this.execute(run, session, active, offEnd).finally(() => this.active.delete(session.id));
  }

  private async execute(run: PreparedRun, session: LiveSession, active: ActiveRun, offEnd: () => void): Promise<void> {
    const sessionId = session.id;
    const results: StepResult[] = [];
    let outcome: FlowOutcome;
    try {
      outcome = await runContained({
        hub: session.hub,
        flow: run.flow,
        privateNetworksAllowed: this.deps.config.BROWSER_ALLOW_PRIVATE_NETWORKS,
        entry: this.engineEntry,
        // The browser runs as the session's user: it can read the files only once they are in its own folder.
        filesDir: handUploads(run.filesDir, session),
        sessionId,
        ai: this.runAi,
        heal: run.heal,
        onHealed: (heal) =>
          this.deps.sessionEvents.append(sessionId, {
            event: 'StepHealed',
            step: heal.index + 1,
            action: heal.action,
            old_selectors: heal.oldSelectors,
            new_selectors: heal.newSelectors,
            // The repair as a suggestion: the dashboard applies new_selectors to this workflow's step (PATCH).
            workflow_id: run.workflowId,
          }),
        signal: active.abort.signal,
        gate: active.gate,
        ...(await this.credentialsOf(run)),
        onPause: (pause) => this.tellPaused(sessionId, active, pause),
        onDialog: (dialog) => this.deps.bus.emit('run.dialog', { session_id: sessionId, ...dialog }),
        onStepStart: (index, action, params) =>
          this.deps.bus.emit('run.stepStarted', { session_id: sessionId, index, action, params }),
        onStep: (index, result, outputs) => {
          results.push(result);
          // Not awaited: the flow does not wait on the store. A late write cannot undo the end (it
          // only touches a running row).
          this.repo
            .progress(run.runId, results, outputs)
            .catch((err: unknown) => this.deps.log.warn({ err }, 'run progress not recorded'));
          this.deps.bus.emit('run.step', { session_id: sessionId, index, result, outputs });
        },
      });
    } catch (err) {
      // reveal() failed (a credential no longer decrypts): nothing ran.
      outcome = {
        succeeded: false,
        message: `The run could not start: ${err instanceof Error ? err.message : 'its credentials could not be read'}`,
        results: [],
        outputs: {},
        screenshot: null,
      };
    }
    offEnd();
    this.removeFiles(run);
    const message = active.interrupted
      ? `Interrupted through the API after ${outcome.results.filter((r) => r.result.ok).length} of ${run.totalActions} steps; the session stays live`
      : outcome.message;
    // The session ends before the run reads as completed, so a caller polling status sees both;
    // an interrupted run leaves it live for a person.
    if (!active.interrupted)
      await this.deps.sessions
        .end(sessionId, 'completed')
        .catch((err: unknown) => this.deps.log.error({ err }, "ending a run's session failed"));
    const succeeded = outcome.succeeded && !active.interrupted;
    await this.repo.complete(run.runId, {
      status: succeeded ? 'succeeded' : 'failed',
      message,
      results: outcome.results,
      outputs: outcome.outputs,
      screenshot: outcome.screenshot,
    });
    await this.tellCompleted(run, sessionId, {
      succeeded,
      message,
      outputs: outcome.outputs,
      steps_run: outcome.results.length,
      screenshot_url: outcome.screenshot ? this.deps.urls.screenshot(sessionId) : null,
      // Read after the session's end, so the files its last moments downloaded are in.
      file_metadata: this.deps.urls.fileMetadata(sessionId, this.deps.artifacts.files(sessionId)),
    });
    this.deps.bus.emit('session.changed', { session_id: sessionId });
  }

  /** The run's credential values and where each may be typed, for its engine. */
  private async credentialsOf(
    run: PreparedRun,
  ): Promise<{ credentials: Map<string, string>; credentialOrigins: Map<string, string[]> }> {
    const { values, origins } = await this.deps.credentials.revealForRun(run.credentials);
    return { credentials: values, credentialOrigins: origins };
  }

  /** run.completed (webhook, event log): the outcome, with what every run's final event carries. */
  private async tellCompleted(
    run: PreparedRun,
    sessionId: string,
    outcome: Pick<
      BusEvents['run.completed'],
      'succeeded' | 'message' | 'outputs' | 'steps_run' | 'screenshot_url' | 'file_metadata'
    >,
  ): Promise<void> {
    const workflow = await this.deps.workflows.runFactsOf(run.workflowId);
    this.deps.bus.emit('run.completed', {
      ...outcome,
      session_id: sessionId,
      workflow_id: run.workflowId,
      webhook_url: run.webhookUrl,
      metadata: run.metadata,
      total_actions: run.totalActions,
      workflow,
    });
  }

  private tellPaused(sessionId: string, active: ActiveRun, pause: PauseState): void {
    this.deps.bus.emit('run.paused', {
      session_id: sessionId,
      workflow_id: active.workflowId,
      pause,
      vnc_url: active.vncUrl,
      webhook_url: active.webhookUrl,
      metadata: active.metadata,
    });
    this.deps.bus.emit('session.changed', { session_id: sessionId });
  }

  private async activeRun(sessionId: string): Promise<ActiveRun> {
    const active = this.active.get(sessionId);
    if (active) return active;
    if (!this.deps.sessions.get(sessionId) && !(await this.repo.getBySession(sessionId))) throw new NotFound('Session');
    throw noRun();
  }

  /**
   * POST /pause: the flow stops before its next step. Pausing a paused run answers its key.
   * `message` says what a person should do meanwhile (an agent's session_handoff).
   */
  async pause(sessionId: string, message: string | null = null): Promise<PauseState> {
    const active = await this.activeRun(sessionId);
    const { state, changed } = active.gate.pause('external', message);
    if (changed) this.tellPaused(sessionId, active, state);
    return state;
  }

  /** POST /resume_session: the flow continues from its next step. */
  async resume(sessionId: string): Promise<PauseState> {
    const active = await this.activeRun(sessionId);
    const lifted = active.gate.resume();
    if (!lifted) throw new Conflict('The run is not paused: there is nothing to resume');
    this.deps.bus.emit('run.resumed', {
      session_id: sessionId,
      workflow_id: active.workflowId,
      pause: lifted,
      webhook_url: active.webhookUrl,
      metadata: active.metadata,
    });
    this.deps.bus.emit('session.changed', { session_id: sessionId });
    return lifted;
  }

  /** POST /editor_interrupt: stop the run where it is; its session stays live for a person. Resolves once the run has ended. */
  async interrupt(sessionId: string): Promise<void> {
    const active = await this.activeRun(sessionId);
    active.interrupted = true;
    active.abort.abort('interrupted' satisfies StopReason);
    await active.done;
  }

  isRunning(sessionId: string): boolean {
    return this.active.has(sessionId);
  }

  /** The pause a session's run is held at, if any. */
  pauseOf(sessionId: string): PauseState | null {
    return this.active.get(sessionId)?.gate.current ?? null;
  }

  removeFiles(run: { filesDir: string }): void {
    fs.rmSync(run.filesDir, { recursive: true, force: true });
  }

  /** Newest first, of one status and/or one workflow, or all. */
  list(request: {
    status?: RunStatus;
    workflowId?: string;
    limit: number;
    cursor?: string;
  }): Promise<Page<RunSummary>> {
    return pageOf(
      request,
      (limit, before) => this.repo.page({ status: request.status, workflowId: request.workflowId, limit, before }),
      toSummary,
    );
  }

  async status(sessionId: string): Promise<RunStatusResponse | undefined> {
    const row = await this.repo.getBySession(sessionId);
    return row && toStatus(row, this.pauseOf(sessionId), await this.queue.position(sessionId));
  }

  /** Stop every run (server closing): each fails, ends its session and is recorded. */
  async closeAll(): Promise<void> {
    await this.queue.close();
    const runs = [...this.active.values()];
    for (const { abort } of runs) abort.abort('server_closing' satisfies StopReason);
    await Promise.all(runs.map((r) => r.done));
  }
}

function toSummary(r: RunRow & { workflow_name: string | null }): RunSummary {
  return {
    session_id: r.session_id,
    workflow_id: r.workflow_id,
    workflow_name: r.workflow_name,
    status: r.status,
    message: r.message,
    total_actions: r.total_actions,
    created_at: r.created_at,
    completed_at: r.completed_at,
    duration_ms: r.completed_at ? Date.parse(r.completed_at) - Date.parse(r.created_at) : null,
  };
}

function toStatus(row: RunRow, pause: PauseState | null, queuePosition: number | null): RunStatusResponse {
  const completed = !isUnfinished(row.status);
  return {
    succeeded: row.status === 'succeeded',
    completed,
    status: row.status,
    message: row.message,
    results: stepResultsOf(row),
    total_actions: row.total_actions,
    session_id: row.session_id,
    workflow_id: row.workflow_id,
    completed_at: row.completed_at,
    outputs: outputsOf(row),
    screenshot: row.screenshot ? `data:image/jpeg;base64,${row.screenshot.toString('base64')}` : null,
    pause,
    queue_position: row.status === 'queued' ? queuePosition : null,
  };
}
