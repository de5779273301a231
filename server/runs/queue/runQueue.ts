import type { RunWorkflowResponse } from '../../../contract/runs.ts';
import type { Capability, LiveSession } from '../../sessions/types.ts';
import type { Sql } from '../../store/sql.ts';
import type { Config } from '../../config.ts';
import type { Bus } from '../../events/bus.ts';
import type { Log } from '../../log.ts';
import type { PublicUrls } from '../../sessions/publicUrls.ts';
import type { SessionManager } from '../../sessions/types.ts';
import type { PreparedRun } from '../preparedRun.ts';
import type { RunFolders } from '../runFolders.ts';

/**
 * Where a run waits when no browser is free: in this process (SQLite, one node: localRunQueue) or
 * in the store shared by every node (Postgres: sharedRunQueue, pg-boss), where any node with room
 * takes the next run and a node's restart or death loses none.
 */
export interface RunQueue {
  /** Whether what waits is the cluster's (any node may start it) rather than this process's. */
  readonly shared: boolean;
  /** Connect (before requests are served), and put back the runs this node took and never started. */
  start(): Promise<void>;
  /** Begin taking runs (once this node's leftovers are settled). */
  take(): void;
  /** The node drains: it takes no more runs from a shared queue (another node will); a local line keeps starting its own. */
  stopTaking(): void;
  /** Runs this node holds in the queue: waiting in its own line, or taken and starting their browser. */
  holding(): number;
  /** Queue a run; its answer (the session's id and URLs) now. Throws AtCapacity when MAX_QUEUED_RUNS wait. */
  enqueue(run: PreparedRun): Promise<RunWorkflowResponse>;
  /** Where the session's run waits (1: next), or null when none of it waits. */
  position(sessionId: string): Promise<number | null>;
  /** The position of the waiting run `token` opens for `capability`, else null (constant-time like authorize). */
  waiting(sessionId: string, token: string | undefined, capability: Capability): Promise<number | null>;
  /** close_session: take the session's run out of the queue; resolves once its failure is recorded, false when none waits. */
  leave(sessionId: string): Promise<boolean>;
  /** A session of this node has ended, its processes gone (the session lifecycle's afterEnd): a waiting run may start. */
  sessionEnded(): void;
  /** Runs the dead nodes took but never started go back into the queue. */
  requeueOfDeadNodes(deadBefore: number): Promise<void>;
  /** Drop what the queue kept of runs that were failed meanwhile (by a restart or a dead node's reaping). */
  forgetFinished(): Promise<void>;
  /** Stop taking runs (server closing); what waits stays waiting where that survives the process. */
  close(): Promise<void>;
}

/** What a queue is built from: the store, the session manager, and what it tells. */
export interface RunQueueDeps {
  config: Pick<Config, 'nodeId' | 'MAX_SESSIONS' | 'MAX_QUEUED_RUNS'>;
  db: Sql;
  bus: Bus;
  log: Log;
  sessions: SessionManager;
  urls: PublicUrls;
}

/** Where a queue finds its runs' uploads: each run's folder on this node's disk. */
export type RunQueueFolders = Pick<RunFolders, 'of' | 'remove'>;

/** What a queue asks of the run service. */
export interface RunQueueHost {
  /** The session is live: the run leaves the queue and replays in it. */
  begin(run: PreparedRun, session: LiveSession, vncUrl: string): Promise<void>;
  /** The run never started (ended while it waited, its browser failed, the server stopped): recorded failed, with its webhook. */
  failUnstarted(run: PreparedRun, sessionId: string, err: unknown): Promise<void>;
  /** Record the run as queued (its row, and run.queued on the bus); `owner` is the node that answers for it (this one by default). */
  recordQueued(
    run: PreparedRun,
    queued: { sessionId: string; position: number; message: string; owner?: string },
    sql?: Sql,
  ): Promise<void>;
}

/** Seconds a caller refused for a full queue is told to wait: roughly one session cycle. */
export const RETRY_AFTER_SECONDS = 5;

/** The message of a queued run's row and answer. */
export const queuedMessage = (position: number, capacity: string) =>
  `Queued at position ${position}: the run starts when a browser frees (${capacity})`;
