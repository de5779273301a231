import type { Db } from './db.ts';

/** The session_events table: each session's log, in order (contract/sessionEvents.ts). */
export function sessionEventsRepo(db: Db) {
  const insert = db.prepare('INSERT INTO session_events (session_id, idx, event, body, created_at) VALUES (?, ?, ?, ?, ?)');
  const count = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM session_events WHERE session_id = ?');
  const from = db.prepare<[string, number, number], { body: string }>(
    'SELECT body FROM session_events WHERE session_id = ? AND idx >= ? ORDER BY idx LIMIT ?',
  );
  return {
    insert: (sessionId: string, index: number, event: string, body: string, createdAt: string) => insert.run(sessionId, index, event, body, createdAt),
    count: (sessionId: string): number => count.get(sessionId)!.n,
    /** Bodies (JSON text) from `since`, at most `limit`. */
    from: (sessionId: string, since: number, limit: number): string[] => from.all(sessionId, since, limit).map((r) => r.body),
  };
}
export type SessionEventsRepo = ReturnType<typeof sessionEventsRepo>;
