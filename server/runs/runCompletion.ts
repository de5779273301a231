import type { BusEvents } from '../events/bus.ts';
import type { ActiveRun } from './activeRuns.ts';
import type { FlowOutcome } from './engine/replay.ts';
import type { PreparedRun } from './preparedRun.ts';
import type { RunParts, RunServiceDeps } from './runDeps.ts';

/** What a run's end touches: its session, its row, its folder, and whom it tells. */
export type RunCompletionDeps = Pick<
  RunServiceDeps,
  'bus' | 'log' | 'sessions' | 'sessionEvents' | 'workflows' | 'urls' | 'artifacts'
> &
  Pick<RunParts, 'runRows' | 'sessionRows' | 'folders'>;

/**
 * How a run ends, replayed or never started: its folder goes, its row is completed and run.completed
 * (webhook, event log) tells the outcome with what every run's final event carries.
 */
export class RunCompletion {
  constructor(private readonly deps: RunCompletionDeps) {}

  /** A replayed run's end: an interrupted run leaves its session live for a person, any other ends it. */
  async finish(run: PreparedRun, sessionId: string, active: ActiveRun, outcome: FlowOutcome): Promise<void> {
    const { deps } = this;
    deps.folders.remove(run);
    const message = active.interrupted
      ? `Interrupted through the API after ${outcome.results.filter((r) => r.result.ok).length} of ${run.totalActions} steps; the session stays live`
      : outcome.message;
    // The session ends before the run reads as completed, so a caller polling status sees both;
    // an interrupted run leaves it live for a person.
    if (!active.interrupted)
      await deps.sessions
        .end(sessionId, 'completed')
        .catch((err: unknown) => deps.log.error({ err }, "ending a run's session failed"));
    const succeeded = outcome.succeeded && !active.interrupted;
    await deps.runRows.complete(run.runId, {
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
      screenshot_url: outcome.screenshot ? deps.urls.screenshot(sessionId) : null,
      // Read after the session's end, so the files its last moments downloaded are in.
      file_metadata: deps.urls.fileMetadata(sessionId, deps.artifacts.files(sessionId)),
    });
    deps.bus.emit('session.changed', { session_id: sessionId });
  }

  /** A queued run whose session never became live (ended while waiting, failed to start, server closing). */
  async failUnstarted(run: PreparedRun, sessionId: string, err: unknown): Promise<void> {
    const { deps } = this;
    deps.folders.remove(run);
    const message = `The run did not start: ${err instanceof Error ? err.message : 'its browser did not start'}`;
    await deps.runRows.complete(run.runId, { status: 'failed', message, results: [], outputs: {}, screenshot: null });
    await this.tellCompleted(run, sessionId, {
      succeeded: false,
      message,
      outputs: {},
      steps_run: 0,
      screenshot_url: null,
      file_metadata: [],
    });
    // A session that never existed has no SessionEnded of its own; its log ends here.
    if (!(await deps.sessionRows.get(sessionId)))
      deps.sessionEvents.append(sessionId, { event: 'SessionEnded', reason: 'stopped' });
  }

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
}
