import type { FastifyInstance } from 'fastify';
import type { SessionClient } from '../../contract/sessionEvents.ts';
import type { LiveSession } from '../sessions/types.ts';

/**
 * A client of the session's URLs has connected: close it (`close`) when the session ends, and tell
 * the session's log it joined. The returned function, for the socket's close, unsubscribes and
 * tells the log it left.
 */
export function joinSession(
  app: FastifyInstance,
  session: LiveSession,
  client: SessionClient,
  close: () => void,
): () => void {
  const off = app.sessions.onEnd(session.id, close);
  app.bus.emit('session.client', { session_id: session.id, client, joined: true });
  return () => {
    off();
    app.bus.emit('session.client', { session_id: session.id, client, joined: false });
  };
}
