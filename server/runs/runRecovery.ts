import { workflowFieldsOf } from '../webhooks/fromBus.ts';
import {
  failInterruptedRuns,
  INTERRUPTED_MESSAGE,
  NODE_LOST_MESSAGE,
  type InterruptedRunsDeps,
} from './interruptedRuns.ts';
import type { RunParts, RunServiceDeps } from './runDeps.ts';

/** What settling interrupted runs touches: the queue, the rows, and where their failure is told. */
export type RunRecoveryDeps = Pick<
  RunServiceDeps,
  'log' | 'webhooks' | 'workflows' | 'sessionEvents' | 'urls' | 'artifacts'
> &
  Pick<RunParts, 'queue' | 'runRows' | 'folders'>;

/** Runs whose process is gone (this node's previous one, or a dead node): back into the queue when never started, else failed. */
export class RunRecovery {
  constructor(private readonly deps: RunRecoveryDeps) {}

  /**
   * Called once before requests are taken: the runs this node took from the queue but never started
   * go back into it, then what a previous process of this node left unfinished fails, with its
   * webhook. The node takes queued runs only once its first heartbeat is in (app.ts): before it,
   * other nodes count it dead and would reap what it takes.
   */
  async recoverInterrupted(): Promise<number> {
    const { queue, runRows, log } = this.deps;
    await queue.start();
    const rows = await failInterruptedRuns(
      this.interruptedDeps((message) => runRows.failUnfinished({ node: 'self' }, message)),
      INTERRUPTED_MESSAGE,
    );
    if (rows.length)
      log.warn(`${rows.length} run(s) were interrupted when the previous process stopped; they are marked failed`);
    await queue.forgetFinished();
    return rows.length;
  }

  /** Put back the runs nodes silent since `deadBefore` took but never started, and fail their other unfinished runs, with their webhooks (cluster/reaper.ts). */
  async failOfDeadNodes(deadBefore: number): Promise<number> {
    const { queue, runRows } = this.deps;
    await queue.requeueOfDeadNodes(deadBefore);
    const failed = (
      await failInterruptedRuns(
        this.interruptedDeps((message) => runRows.failUnfinished({ deadBefore }, message)),
        NODE_LOST_MESSAGE,
      )
    ).length;
    await queue.forgetFinished();
    return failed;
  }

  private interruptedDeps(claim: InterruptedRunsDeps['claim']): InterruptedRunsDeps {
    const { deps } = this;
    return {
      claim,
      // The run's workflow fields (typed outputs, its metadata) are added here: interruptedRuns.ts builds the event from the run row alone.
      enqueue: async (url, event) =>
        deps.webhooks.enqueue(
          url,
          event.type === 'run.completed'
            ? {
                ...event,
                ...workflowFieldsOf(event.scraper_outputs, await deps.workflows.runFactsOf(event.workflow_id)),
              }
            : event,
        ),
      runDir: (id) => deps.folders.of(id),
      record: (sessionId, message, outputs) =>
        deps.sessionEvents.append(sessionId, { event: 'RunError', message, outputs }),
      // On a dead node's runs, only what reached this node's disk (its own artifacts are on its host).
      files: (sessionId) => deps.urls.fileMetadata(sessionId, deps.artifacts.files(sessionId)),
    };
  }
}
