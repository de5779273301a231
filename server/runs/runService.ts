import { randomUUID } from 'node:crypto';
import type { SessionMessageRequest } from '../../contract/agent.ts';
import type { RunStatusResponse, RunSummary } from '../../contract/runs.ts';
import type { SessionStatus } from '../../contract/runControl.ts';
import type { Page } from '../domain/pages.ts';
import type { RunsRepo } from '../store/runs.ts';
import { ActiveRuns } from './activeRuns.ts';
import type { RunAi } from './ai.ts';
import type { PauseState } from './pauseGate.ts';
import { prepareRun } from './prepareRun.ts';
import type { RunQueue } from './queue/runQueue.ts';
import type { RunServiceDeps } from './runDeps.ts';
import type { EngineChoice } from './replayInSession.ts';
import { EngineThreads } from './engine/engineThreads.ts';
import { RunCompletion } from './runCompletion.ts';
import { RunFolders } from './runFolders.ts';
import { RunLauncher, type RunStart } from './runLauncher.ts';
import { messageRun } from './runMessages.ts';
import { RunRecovery } from './runRecovery.ts';
import { RunStatuses, type RunListRequest } from './runStatuses.ts';
import type { RunForm } from './uploads.ts';

/**
 * Workflow runs, from request to end: each call is one domain operation over the parts that do one
 * job each (prepareRun, RunLauncher with its queue, ActiveRuns, RunCompletion, RunRecovery,
 * RunStatuses); the run folders are this node's (RunFolders).
 */
export class RunService {
  private readonly folders: RunFolders;
  private readonly engine: EngineChoice = { threads: new EngineThreads() };
  private readonly active: ActiveRuns;
  private readonly launcher: RunLauncher;
  private readonly recovery: RunRecovery;
  private readonly statuses: RunStatuses;
  private readonly runRows: RunsRepo;
  /** Where runs wait for a browser: this process on SQLite, the store every node shares on Postgres. */
  readonly queue: RunQueue;

  constructor(private readonly deps: RunServiceDeps) {
    const { runRows, sessionRows } = deps;
    this.runRows = runRows;
    this.folders = new RunFolders(deps.config.dataDir);
    this.active = new ActiveRuns({ bus: deps.bus, sessions: deps.sessions, runRows });
    const completion = new RunCompletion({ ...deps, runRows, sessionRows, folders: this.folders });
    this.launcher = new RunLauncher({
      ...deps,
      engine: this.engine,
      runRows,
      active: this.active,
      completion,
      folders: this.folders,
    });
    this.queue = this.launcher.queue;
    this.recovery = new RunRecovery({ ...deps, queue: this.queue, runRows, folders: this.folders });
    this.statuses = new RunStatuses({ ...deps, runRows, sessionRows, active: this.active, queue: this.queue });
  }

  /** Called once before requests are taken (RunRecovery.recoverInterrupted). */
  recoverInterrupted(): Promise<number> {
    return this.recovery.recoverInterrupted();
  }

  /** The runs of nodes silent since `deadBefore` (cluster/reaper.ts): requeued when never started, else failed. */
  failOfDeadNodes(deadBefore: number): Promise<number> {
    return this.recovery.failOfDeadNodes(deadBefore);
  }

  /** The model runs use for AI steps and self-healing, from whoever builds it (the agent); undefined: none. */
  useAi(ai: RunAi | undefined): void {
    this.engine.ai = ai;
  }

  /** The engine thread's entry (engine/entry.ts's bundle when undefined); a test hands one that fails on purpose. */
  useEngineEntry(entry: URL | undefined): void {
    this.engine.threads.useEntry(entry);
  }

  /**
   * run_workflow: `receive` writes the request's files into the run's own folder and answers its
   * form; the run is checked (a 4xx names the field, and the folder goes), then started or queued.
   */
  async submit(receive: (filesDir: string) => Promise<RunForm>, apiKeyId: string | null = null): Promise<RunStart> {
    const runId = randomUUID();
    const filesDir = this.folders.of(runId);
    const form = await receive(filesDir);
    let prepared;
    try {
      prepared = await prepareRun(this.deps, { runId, filesDir, apiKeyId }, form);
    } catch (err) {
      this.folders.remove({ filesDir });
      throw err;
    }
    return this.launcher.start(prepared);
  }

  pause(sessionId: string, message?: string | null): Promise<PauseState> {
    return this.active.pause(sessionId, message);
  }

  resume(sessionId: string): Promise<PauseState> {
    return this.active.resume(sessionId);
  }

  /** A message to the run's message_url: resumes its pause (runMessages.ts). */
  message(sessionId: string, body: SessionMessageRequest): Promise<PauseState> {
    return messageRun({ active: this.active, runRows: this.runRows }, sessionId, body);
  }

  interrupt(sessionId: string): Promise<void> {
    return this.active.interrupt(sessionId);
  }

  isRunning(sessionId: string): boolean {
    return this.active.isRunning(sessionId);
  }

  pauseOf(sessionId: string): PauseState | null {
    return this.active.pauseOf(sessionId);
  }

  /** Take the session's queued run out of the queue (its session closed first); false when none waits. */
  leaveQueue(sessionId: string): Promise<boolean> {
    return this.queue.leave(sessionId);
  }

  list(request: RunListRequest): Promise<Page<RunSummary>> {
    return this.statuses.list(request);
  }

  status(sessionId: string): Promise<RunStatusResponse> {
    return this.statuses.status(sessionId);
  }

  sessionStatus(sessionId: string): Promise<SessionStatus> {
    return this.statuses.sessionStatus(sessionId);
  }

  /** The node drains: it takes no more queued runs (on Postgres the other nodes do); what it runs goes on. */
  stopTaking(): void {
    this.queue.stopTaking();
  }

  /** Runs this node is running, starting, or holds in its own waiting line. */
  inFlight(): number {
    return this.active.size + this.queue.holding();
  }

  /** Stop every run (server closing): the queue stops taking runs, then each run under way fails, ends its session and is recorded. */
  async closeAll(): Promise<void> {
    await this.queue.close();
    await this.active.stopAll();
    await this.engine.threads.close();
  }
}
