import type { Sql } from './sql.ts';

/** A session another node started, changed or ended, and its run's outcome when that run ended. */
export interface ChangedSession {
  session_id: string;
  /** The run's outcome when its run ended in the window; null for any other change. */
  run_succeeded: boolean | null;
}

/**
 * What the other nodes of the store changed since `since` (ISO, their clocks): the sessions they
 * started or ended, the runs they took in or ended. For a node whose LISTEN connection dropped
 * (cluster/eventRelay.ts), which missed their notifications meanwhile. Read on a reconnect only:
 * `ended_at` and `completed_at` have no index, and a scan then is cheap next to a missed event.
 */
export async function otherNodesChanges(sql: Sql, self: string, since: string): Promise<ChangedSession[]> {
  const sessions = await sql.all<{ id: string }>(
    'SELECT id FROM sessions WHERE node_id != ? AND (created_at >= ? OR ended_at >= ?)',
    [self, since, since],
  );
  const runs = await sql.all<{ session_id: string; status: string; completed_at: string | null }>(
    'SELECT session_id, status, completed_at FROM runs WHERE node_id != ? AND (created_at >= ? OR completed_at >= ?)',
    [self, since, since],
  );
  const changed = new Map<string, ChangedSession>(
    sessions.map((s) => [s.id, { session_id: s.id, run_succeeded: null }]),
  );
  for (const r of runs) {
    const ended = r.completed_at !== null && r.completed_at >= since;
    changed.set(r.session_id, { session_id: r.session_id, run_succeeded: ended ? r.status === 'succeeded' : null });
  }
  return [...changed.values()];
}
