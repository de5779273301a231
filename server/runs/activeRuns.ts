import { Conflict, NotFound } from '../domain/errors.ts';
import type { Bus } from '../events/bus.ts';
import type { SessionManager } from '../sessions/types.ts';
import type { RunsRepo } from '../store/runs.ts';
import { PauseGate, type PauseState } from './pauseGate.ts';
import type { PreparedRun } from './preparedRun.ts';
import type { StopReason } from './stepFailure.ts';

/** A run under way, by its session. */
export interface ActiveRun {
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

/** The refusal of pause, resume and interrupt when the session has no run under way (its state forbids them, so a Conflict). */
const noRun = () =>
  new Conflict('No run is under way in this session: pause, resume and interrupt act on a running workflow');

/**
 * This node's runs under way, by session id, and the calls that act on one while it runs: pause,
 * resume, interrupt. Each is aborted and awaited on server close.
 */
export class ActiveRuns {
  private readonly runs = new Map<string, ActiveRun>();

  constructor(
    private readonly deps: {
      bus: Bus;
      sessions: Pick<SessionManager, 'get'>;
      runRows: Pick<RunsRepo, 'getBySession'>;
    },
  ) {}

  /** Runs under way on this node. */
  get size(): number {
    return this.runs.size;
  }

  /** Hold the run in `sessionId` as under way while `execute` runs it; it leaves once that settles. */
  track(sessionId: string, run: PreparedRun, vncUrl: string, execute: (active: ActiveRun) => Promise<void>): void {
    const active: ActiveRun = {
      runId: run.runId,
      workflowId: run.workflowId,
      abort: new AbortController(),
      done: Promise.resolve(),
      gate: new PauseGate(),
      vncUrl,
      webhookUrl: run.webhookUrl,
      metadata: run.metadata,
      interrupted: false,
    };
    this.runs.set(sessionId, active);
    active.done = execute(active).finally(() => this.runs.delete(sessionId));
  }

  private async activeRun(sessionId: string): Promise<ActiveRun> {
    const active = this.runs.get(sessionId);
    if (active) return active;
    if (!this.deps.sessions.get(sessionId) && !(await this.deps.runRows.getBySession(sessionId)))
      throw new NotFound('Session');
    throw noRun();
  }

  /** run.paused: the flow holds before its next step, for `pause`. */
  tellPaused(sessionId: string, active: ActiveRun, pause: PauseState): void {
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

  /**
   * POST /resume_session, or a message to the run (runMessages.ts): the flow continues from its
   * next step; `answer` is the person's message, handed to the pause step that waits for it.
   */
  async resume(sessionId: string, answer: string | null = null): Promise<PauseState> {
    const active = await this.activeRun(sessionId);
    const lifted = active.gate.resume(answer);
    if (!lifted) throw new Conflict('The run is not paused: there is nothing to resume');
    this.deps.bus.emit('run.resumed', {
      session_id: sessionId,
      workflow_id: active.workflowId,
      pause: lifted,
      ...(answer !== null ? { answer } : {}),
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
    return this.runs.has(sessionId);
  }

  /** The pause a session's run is held at, if any. */
  pauseOf(sessionId: string): PauseState | null {
    return this.runs.get(sessionId)?.gate.current ?? null;
  }

  /** Stop every run (server closing): each fails, ends its session and is recorded. */
  async stopAll(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const { abort } of runs) abort.abort('server_closing' satisfies StopReason);
    await Promise.all(runs.map((r) => r.done));
  }
}
