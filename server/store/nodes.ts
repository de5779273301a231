import type { Sql } from './db.ts';

export interface NodeRow {
  id: string;
  max_sessions: number;
  sessions: number;
  started_at: string;
  heartbeat_at: number;
}

/** The nodes table: each node's last heartbeat, room and load (migration 011). */
export function nodesRepo(sql: Sql) {
  return {
    beat: (node: Omit<NodeRow, 'heartbeat_at'>, now: number) =>
      sql.run(
        `INSERT INTO nodes (id, max_sessions, sessions, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET max_sessions = excluded.max_sessions, sessions = excluded.sessions,
           started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at`,
        [node.id, node.max_sessions, node.sessions, node.started_at, now],
      ),
    /**
     * A node whose port refused a connection, silent since `silentBefore`, is counted dead at once
     * (nothing listens where it served, so none of its sessions can be live). True when marked.
     */
    refused: async (id: string, silentBefore: number): Promise<boolean> =>
      (await sql.get<{ id: string }>(
        'UPDATE nodes SET heartbeat_at = 0, sessions = 0 WHERE id = ? AND heartbeat_at > 0 AND heartbeat_at < ? RETURNING id',
        [id, silentBefore],
      )) !== undefined,
    /** The node's id as stored when it has beaten since `aliveAfter`; undefined otherwise. */
    alive: async (id: string, aliveAfter: number): Promise<string | undefined> =>
      (await sql.get<{ id: string }>('SELECT id FROM nodes WHERE id = ? AND heartbeat_at >= ?', [id, aliveAfter]))?.id,
    /** A node that stops in order says so: nothing is sent to it any more, and nothing of it is left to reap. */
    stopped: (id: string) => sql.run('UPDATE nodes SET heartbeat_at = 0, sessions = 0 WHERE id = ?', [id]),
    /**
     * Take one place on the roomiest live node other than `self` and return its id; undefined when
     * none has room. The place is counted at once (the node's next report of its load replaces the
     * guess), so requests placed together spread instead of all going to the same node.
     */
    claimPlace: async (aliveAfter: number, self: string): Promise<string | undefined> =>
      (
        await sql.get<{ id: string }>(
          `UPDATE nodes SET sessions = sessions + 1 WHERE id = (
             SELECT id FROM nodes WHERE heartbeat_at >= ? AND id != ? AND id != 'local' AND sessions < max_sessions
             ORDER BY max_sessions - sessions DESC, id LIMIT 1 ${sql.engine === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : ''}
           ) RETURNING id`,
          [aliveAfter, self],
        )
      )?.id,
    /**
     * The node that holds a session (its browser, or its files once ended) with that node's last
     * heartbeat; a queued run's session has only its run's row so far.
     */
    ownerOf: (sessionId: string) =>
      sql.get<{ node_id: string; heartbeat_at: number | null }>(
        `SELECT o.node_id, n.heartbeat_at FROM (
           SELECT node_id FROM sessions WHERE id = ? UNION ALL SELECT node_id FROM runs WHERE session_id = ?
         ) o LEFT JOIN nodes n ON n.id = o.node_id LIMIT 1`,
        [sessionId, sessionId],
      ),
  };
}
export type NodesRepo = ReturnType<typeof nodesRepo>;
