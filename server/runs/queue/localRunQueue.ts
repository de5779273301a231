import type { RunWorkflowResponse } from '../../../contract/runs.ts';
import type { Capability } from '../../sessions/types.ts';
import { sessionOf, type PreparedRun } from '../preparedRun.ts';
import {
  queuedMessage,
  type RunQueue,
  type RunQueueDeps,
  type RunQueueFolders,
  type RunQueueHost,
} from './runQueue.ts';
import { WaitingLine } from './waitingLine.ts';

/**
 * One node on SQLite: a queued run holds a place in this process's waiting line, which starts its
 * session when one of this node's sessions ends. It lives and dies with the process: a stop fails
 * what waits.
 */
export class LocalRunQueue implements RunQueue {
  readonly shared = false;
  private readonly line: WaitingLine;
  /** Queued runs, by session id: settled once the run has started or its failure is recorded. */
  private readonly leaving = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: RunQueueDeps,
    private readonly host: RunQueueHost,
    private readonly folders: RunQueueFolders,
  ) {
    this.line = new WaitingLine(deps);
  }

  async start(): Promise<void> {}

  take(): void {}

  /**
   * Nothing: on one node there is nowhere else for a waiting run to go, and this line dies with the
   * process. So the runs it accepted keep starting here as browsers free while the node drains
   * (the drain waits for them too, within DRAIN_TIMEOUT_S) rather than fail at once.
   */
  stopTaking(): void {}

  sessionEnded(): void {
    this.line.startWaiting();
  }

  holding(): number {
    return this.line.size;
  }

  async enqueue(run: PreparedRun): Promise<RunWorkflowResponse> {
    let reservation;
    try {
      reservation = this.line.join(sessionOf(run));
    } catch (err) {
      this.folders.remove(run);
      throw err;
    }
    const { id: sessionId, tokens, position } = reservation;
    const message = queuedMessage(position, `this server runs ${this.deps.config.MAX_SESSIONS} sessions at once`);
    await this.host.recordQueued(run, { sessionId, position, message });
    this.deps.bus.emit('run.queued', { session_id: sessionId, workflow_id: run.workflowId, position });
    const vncUrl = this.deps.urls.vnc(sessionId, tokens.control);
    // Attached after the row is written, so the start always finds it queued.
    const settled = reservation.started
      .then(
        (session) => this.host.begin(run, session, vncUrl),
        (err: unknown) => this.host.failUnstarted(run, sessionId, err),
      )
      .catch((failure: unknown) => {
        // The store closing under a shutdown: the next start fails the run (failInterruptedRuns).
        this.deps.log.warn(
          { err: failure, session_id: sessionId },
          'a queued run could not be marked started or failed',
        );
      })
      .finally(() => this.leaving.delete(sessionId));
    this.leaving.set(sessionId, settled);
    return {
      succeeded: true,
      message,
      session_id: sessionId,
      vnc_url: vncUrl,
      logs_url: this.deps.urls.logs(sessionId),
    };
  }

  async position(sessionId: string): Promise<number | null> {
    return this.line.position(sessionId);
  }

  async waiting(sessionId: string, token: string | undefined, capability: Capability): Promise<number | null> {
    return this.line.waitingFor(sessionId, token, capability);
  }

  async leave(sessionId: string): Promise<boolean> {
    if (this.line.position(sessionId) === null) return false;
    await this.line.leave(sessionId);
    // Answered once its failure is in the store, so a status read next sees it.
    await this.leaving.get(sessionId);
    return true;
  }

  async requeueOfDeadNodes(): Promise<void> {}

  async forgetFinished(): Promise<void> {}

  async close(): Promise<void> {
    this.line.close();
  }
}
