/**
 * Where a session is served. Every node of a cluster shares the store, so any node can read a
 * session's record; but its browser, its live sockets and its files are on the node that started
 * it, and requests for those are passed on to that node (server/http/forwarding/forward.ts, which
 * reads this as app.cluster).
 */
export interface ClusterRouting {
  /** This node's id (its NODE_URL, or 'local' on a single node). */
  readonly nodeId: string;
  /**
   * Base URL (NODE_URL) of the live node that holds the session when that is another node; null
   * when this node answers: its own session, an unknown one, or one whose node is gone.
   */
  ownerUrl(sessionId: string): Promise<string | null>;
  /** Another live node with room for a session (where a create goes when this node is full), its place taken; null when none has. */
  nodeWithRoom(): Promise<string | null>;
  /**
   * A connection to `nodeId` was refused: when it has also missed a heartbeat it is counted dead
   * now and what it held is reaped (its sessions read crashed), instead of after DEAD_AFTER_MS.
   * True when it was; a node refusing while it still beats (restarting) is left alone.
   */
  refused(nodeId: string): Promise<boolean>;
}
