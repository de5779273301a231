import { StoredSessionEvent, type SessionEvent } from '../../contract/sessionEvents.ts';
import type { Sql } from './db.ts';
import { jsonColumn } from './jsonColumn.ts';

/** Each row's event, whole; its session, index, name and time are columns of their own too. */
const bodyColumn = jsonColumn('session_events.body', StoredSessionEvent);

/** The session_events table: each session's log, in order (contract/sessionEvents.ts). */
export function sessionEventsRepo(sql: Sql) {
  return {
    insert: (event: SessionEvent) =>
      sql.run('INSERT INTO session_events (session_id, idx, event, body, created_at) VALUES (?, ?, ?, ?, ?)', [
        event.session_id,
        event.index,
        event.event,
        bodyColumn.write(event),
        event.created_at,
      ]),
    count: async (sessionId: string): Promise<number> =>
      (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM session_events WHERE session_id = ?', [sessionId]))!.n,
    /** The events from `since`, at most `limit`. */
    from: async (sessionId: string, since: number, limit: number): Promise<SessionEvent[]> =>
      (
        await sql.all<{ body: string }>(
          'SELECT body FROM session_events WHERE session_id = ? AND idx >= ? ORDER BY idx LIMIT ?',
          [sessionId, since, limit],
        )
      ).map((r) => bodyColumn.read(r.body)),
  };
}
export type SessionEventsRepo = ReturnType<typeof sessionEventsRepo>;
