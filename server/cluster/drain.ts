import type { DrainState } from '../../contract/nodes.ts';
import type { Config } from '../config.ts';
import type { Log } from '../log.ts';
import type { SessionEventLog } from '../sessionEvents/log.ts';
import type { SessionManager } from '../sessions/types.ts';
import type { RunService } from '../runs/runService.ts';

/** How often a draining node looks whether what it runs has ended (a cheap count in memory). */
const LOOK_EVERY_MS = 250;

export interface NodeDrainDeps {
  config: Pick<Config, 'nodeId' | 'DRAIN_TIMEOUT_S'>;
  sessions: Pick<SessionManager, 'drain' | 'active' | 'liveIds'>;
  runs: Pick<RunService, 'stopTaking' | 'inFlight'>;
  /** Say this node's room now (none while it drains), so no other node places work on it meanwhile. */
  reportLoad: () => void;
  events: Pick<SessionEventLog, 'append'>;
  log: Log;
}

/**
 * Taking this node out gently (SIGTERM, or POST /api/nodes/{id}/drain): from the first call it
 * starts no new session (creates are refused, or in a cluster passed to a node with room), takes
 * no queued run (on Postgres the other nodes take them; on SQLite its own line still starts the
 * runs it accepted: there is nowhere else for them), and reads not ready. Runs under way and live
 * sessions get DRAIN_TIMEOUT_S to end on their own; `finished` resolves once nothing is left or
 * the time is up, and whoever owns the process (main.ts) then closes the server, which ends what
 * is left as a stop always has. Nothing live is moved: a browser cannot change node.
 */
export class NodeDrain {
  private began: { since: Date; deadline: Date } | undefined;
  /** Requests under way that start a session or a run (hold): the drain waits for their answers too. */
  private held = 0;
  private finish!: () => void;
  /** Resolves when the drain is over: nothing runs any more, or DRAIN_TIMEOUT_S has passed. */
  readonly finished = new Promise<void>((resolve) => (this.finish = resolve));

  constructor(private readonly deps: NodeDrainDeps) {}

  /** When the drain under way began and when it ends at the latest; null while the node takes work. */
  window(): Pick<DrainState, 'since' | 'deadline'> | null {
    return this.began ? { since: this.began.since.toISOString(), deadline: this.began.deadline.toISOString() } : null;
  }

  /** The drain under way with what is left of it, or null while the node takes work. */
  state(): DrainState | null {
    const window = this.window();
    if (!window) return null;
    return {
      node_id: this.deps.config.nodeId,
      ...window,
      runs: this.deps.runs.inFlight(),
      sessions: this.deps.sessions.active,
    };
  }

  /**
   * Keep the drain open while a request that starts a session or a run is answered; call the
   * returned function once its answer is sent. *Why:* such a request may be passed to another node
   * (a draining node places nothing itself), and that node may be creating the run when this one
   * would close. Cut then, the client hears a reset, sends the run again, and it runs twice.
   */
  hold(): () => void {
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
    };
  }

  /** Begin draining (once: a second call answers the same drain, its deadline unchanged). */
  begin(): DrainState {
    if (!this.began) {
      const since = new Date();
      const deadline = new Date(since.getTime() + this.deps.config.DRAIN_TIMEOUT_S * 1000);
      this.began = { since, deadline };
      this.deps.sessions.drain();
      this.deps.runs.stopTaking();
      this.deps.reportLoad();
      this.deps.log.info(
        { deadline: deadline.toISOString(), runs: this.deps.runs.inFlight(), sessions: this.deps.sessions.active },
        'draining: no new sessions or queued runs; what runs has until the deadline',
      );
      this.tell(
        `This node is draining before a restart: the session goes on, and ends at ${deadline.toISOString()} at the latest`,
      );
      void this.wait(deadline);
    }
    return this.state()!;
  }

  private async wait(deadline: Date): Promise<void> {
    while (this.deps.runs.inFlight() + this.deps.sessions.active + this.held > 0) {
      if (Date.now() >= deadline.getTime()) {
        this.tell(
          `DRAIN_TIMEOUT_S (${this.deps.config.DRAIN_TIMEOUT_S} s) ran out: the node stops, and the session ends now`,
        );
        this.deps.log.warn(
          { runs: this.deps.runs.inFlight(), sessions: this.deps.sessions.active },
          'drain: DRAIN_TIMEOUT_S ran out; what still runs ends now',
        );
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
    }
    this.finish();
  }

  /** A NodeDraining event in the log of every session this node holds now. */
  private tell(message: string): void {
    const deadline = this.began!.deadline.toISOString();
    for (const id of this.deps.sessions.liveIds())
      this.deps.events.append(id, { event: 'NodeDraining', message, deadline });
  }
}
