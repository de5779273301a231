import type { Sql } from './db.ts';

/** The session_events table: each session's log, in order (contract/sessionEvents.ts). */
export function sessionEventsRepo(sql: Sql) {
  return {
    insert: (sessionId: string, index: number, event: string, body: string, createdAt: string) =>
      sql.run('INSERT INTO session_events (session_id, idx, event, body, created_at) VALUES (?, ?, ?, ?, ?)', [sessionId, index, event, body, createdAt]),
    count: async (sessionId: string): Promise<number> =>
      (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_events WHERE session_id = ?', [sessionId]))!.n,
    /** Bodies (JSON text) from `since`, at most `limit`. */
    from: async (sessionId: string, since: number, limit: number): Promise<string[]> =>
      (await sql.all<{ body: string }>('SELECT body FROM session_events WHERE session_id = ? AND idx >= ? ORDER BY idx LIMIT ?', [sessionId, since, limit])).map(
        (r) => r.body,
      ),
  };
}
export type SessionEventsRepo = ReturnType<typeof sessionEventsRepo>;
