import { randomUUID } from 'node:crypto';
import type { RunStatus, RunWorkflowResponse } from '../../contract/runs.ts';
import { AtCapacity } from '../domain/errors.ts';
import { drainingRefusal } from '../sessions/refusals.ts';
import type { LiveSession } from '../sessions/types.ts';
import { runsRepo, type RunsRepo } from '../store/runs.ts';
import type { Sql } from '../store/sql.ts';
import { sessionOf, type PreparedRun } from './preparedRun.ts';
import { LocalRunQueue } from './queue/localRunQueue.ts';
import type { RunQueue, RunQueueHost } from './queue/runQueue.ts';
import { SharedRunQueue } from './queue/sharedRunQueue.ts';
import { replayInSession, type EngineChoice } from './replayInSession.ts';
import type { RunCompletion } from './runCompletion.ts';
import type { RunParts, RunServiceDeps } from './runDeps.ts';
import type { StopReason } from './stepFailure.ts';

/** How a run_workflow call went: started now, queued for a browser, or not started (its browser failed; recorded as a failed run). */
export interface RunStart {
  outcome: 'started' | 'queued' | 'not_started';
  response: RunWorkflowResponse;
}

/** What launching a run takes: a session (now or from the queue), its row, and the parts that replay and end it. */
export type RunLauncherDeps = RunServiceDeps &
  Pick<RunParts, 'runRows' | 'active' | 'folders'> & { engine: EngineChoice; completion: RunCompletion };

/** A run's row as it is first written, whatever its first status. */
const runRowOf = (run: PreparedRun, sessionId: string, status: RunStatus, message: string) =>
  ({
    id: run.runId,
    session_id: sessionId,
    workflow_id: run.workflowId,
    status,
    message,
    total_actions: run.totalActions,
    metadata: run.metadata ?? null,
    webhook_url: run.webhookUrl ?? null,
  }) satisfies Parameters<RunsRepo['insert']>[0];

/** Starts prepared runs: in a new session now, or through the queue when the host is full; then replays each in the background. */
export class RunLauncher implements RunQueueHost {
  /** Where runs wait for a browser: this process on SQLite, the store every node shares on Postgres. */
  readonly queue: RunQueue;

  constructor(private readonly deps: RunLauncherDeps) {
    this.queue = deps.config.DATABASE_URL
      ? new SharedRunQueue(deps, this, deps.folders, deps.config.DATABASE_URL)
      : new LocalRunQueue(deps, this, deps.folders);
  }

  /**
   * Start a session and the replay in it; resolves as soon as the run is under way. On a full host
   * the run is queued instead and starts when a browser frees (429 only when the queue is full).
   * A session that cannot start is a failed run (503, succeeded false).
   */
  async start(run: PreparedRun): Promise<RunStart> {
    const { deps } = this;
    if (deps.sessions.draining) {
      // A shared queue's run is started by another node; a node alone has nowhere to send it.
      if (this.queue.shared) return { outcome: 'queued', response: await this.queue.enqueue(run) };
      deps.folders.remove(run);
      throw drainingRefusal();
    }
    if (!deps.sessions.hasRoom(sessionOf(run))) return { outcome: 'queued', response: await this.queue.enqueue(run) };
    let created;
    try {
      created = await deps.sessions.create(sessionOf(run));
    } catch (err) {
      // Another request took the last slot between the check and the create.
      if (err instanceof AtCapacity) return { outcome: 'queued', response: await this.queue.enqueue(run) };
      deps.folders.remove(run);
      const message = `The run could not start: ${err instanceof Error ? err.message : 'the browser did not start'}`;
      const sessionId = randomUUID();
      await deps.runRows.insert(runRowOf(run, sessionId, 'failed', message));
      return {
        outcome: 'not_started',
        response: { succeeded: false, message, session_id: sessionId, vnc_url: '', logs_url: '' },
      };
    }
    const { session, tokens } = created;
    await deps.runRows.insert(runRowOf(run, session.id, 'running', 'Running'));
    const vncUrl = deps.urls.vnc(session.id, tokens.control);
    this.replay(run, session, vncUrl);
    return {
      outcome: 'started',
      response: {
        succeeded: true,
        message: `Run started: ${run.totalActions} steps`,
        session_id: session.id,
        vnc_url: vncUrl,
        logs_url: deps.urls.logs(session.id),
      },
    };
  }

  async recordQueued(
    run: PreparedRun,
    queued: { sessionId: string; position: number; message: string; owner?: string },
    sql: Sql = this.deps.db,
  ): Promise<void> {
    await runsRepo(sql, this.deps.config.nodeId).insert(
      runRowOf(run, queued.sessionId, 'queued', queued.message),
      queued.owner,
    );
  }

  /** A queued run's session is live: the run is marked started and replays in it. */
  async begin(run: PreparedRun, session: LiveSession, vncUrl: string): Promise<void> {
    const { deps } = this;
    if (!(await deps.runRows.markStarted(run.runId))) {
      // No longer queued: failed meanwhile (a node that counted this one dead reaped it). It stays failed.
      deps.log.warn({ session_id: session.id }, 'a queued run was failed while its browser started; its session ends');
      deps.folders.remove(run);
      await deps.sessions.end(session.id, 'stopped');
      return;
    }
    this.replay(run, session, vncUrl);
  }

  failUnstarted(run: PreparedRun, sessionId: string, err: unknown): Promise<void> {
    return this.deps.completion.failUnstarted(run, sessionId, err);
  }

  /** Run the flow in a live session, in the background. */
  private replay(run: PreparedRun, session: LiveSession, vncUrl: string): void {
    const { deps } = this;
    deps.active.track(session.id, run, vncUrl, async (active) => {
      deps.bus.emit('run.started', {
        session_id: session.id,
        workflow_id: run.workflowId,
        total_actions: run.totalActions,
        webhook_url: run.webhookUrl,
        metadata: run.metadata,
      });
      deps.bus.emit('session.changed', { session_id: session.id });
      const offEnd = deps.sessions.onEnd(session.id, (reason) =>
        active.abort.abort(reason satisfies StopReason | undefined),
      );
      const outcome = await replayInSession(deps, run, session, active);
      offEnd();
      await deps.completion.finish(run, session.id, active, outcome);
    });
  }
}
