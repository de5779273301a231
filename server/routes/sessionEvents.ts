import type { FastifyInstance } from 'fastify';
import { sessionEventOperations as ops, type SessionEvent } from '../../contract/sessionEvents.ts';
import { notFound } from '../http/errors.ts';
import { addRoute } from '../http/route.ts';
import { openSse } from '../http/sse.ts';
import { SessionEventLog } from '../sessionEvents/log.ts';
import { sessionsRepo } from '../store/sessions.ts';

const KEEP_ALIVE_MS = 15_000;

/** logs_url and its polling sibling, and retrieve_session_logs: a session's event log (contract/sessionEvents.ts). */
export async function sessionEventRoutes(app: FastifyInstance): Promise<void> {
  const sessions = sessionsRepo(app.db);
  const known = (id: string) => {
    if (!sessions.get(id)) throw notFound('Session');
  };
  // Open streams, ended on server close so app.close() does not wait on them.
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });

  addRoute(app, ops.sessionEventStream, ({ params }, req, reply) => {
    known(params.id);
    let stop = () => undefined as void;
    const sse = openSse(reply, () => {
      clearInterval(keepAlive);
      stop();
      open.delete(sse.end);
    });
    open.add(sse.end);
    // Last-Event-ID: a reconnecting EventSource picks up after the last event it had.
    const last = Number(req.headers['last-event-id']);
    const since = Number.isInteger(last) && last >= 0 ? last + 1 : 0;
    const send = (e: SessionEvent) => {
      sse.send(e, undefined, String(e.index));
      if (SessionEventLog.isLast(e)) queueMicrotask(() => sse.end());
    };
    stop = app.sessionEvents.follow(params.id, since, send);
    const keepAlive = setInterval(() => sse.comment('keep-alive'), KEEP_ALIVE_MS);
  });

  addRoute(app, ops.sessionEvents, ({ params, query }) => {
    known(params.id);
    return app.sessionEvents.page(params.id, query.since, query.limit);
  });

  addRoute(app, ops.retrieveSessionLogs, ({ params }) => {
    const row = sessions.get(params.id);
    if (!row) throw notFound('Session');
    if (row.state !== 'ended' || app.runs.isRunning(params.id)) return { logs: null };
    return { logs: app.sessionEvents.page(params.id, 0, 100_000).events };
  });
}
