import type { FastifyInstance } from 'fastify';
import { sessionEventOperations as ops, type SessionEvent } from '../../contract/sessionEvents.ts';
import { addRoute } from '../http/route.ts';
import { longLivedStreams } from '../http/sse.ts';
import { SessionEventLog } from '../sessionEvents/log.ts';

/** logs_url and its polling sibling, and retrieve_session_logs: a session's event log (contract/sessionEvents.ts). */
export async function sessionEventRoutes(app: FastifyInstance): Promise<void> {
  const { sessionRecords } = app;
  const openStream = longLivedStreams(app);

  addRoute(app, ops.sessionEventStream, async ({ params }, req, reply) => {
    // A queued run's session has its log (RunQueued) before it has a record: assertKnown takes either.
    await sessionRecords.assertKnown(params.id);
    let stop = () => undefined as void;
    const sse = openStream(reply, () => stop());
    // Last-Event-ID: a reconnecting EventSource picks up after the last event it had.
    const last = Number(req.headers['last-event-id']);
    const since = Number.isInteger(last) && last >= 0 ? last + 1 : 0;
    const send = (e: SessionEvent) => {
      sse.send(e, undefined, String(e.index));
      if (SessionEventLog.isLast(e)) queueMicrotask(() => sse.end());
    };
    stop = app.sessionEvents.follow(params.id, since, send);
  });

  addRoute(app, ops.sessionEvents, async ({ params, query }) => {
    await sessionRecords.assertKnown(params.id);
    return app.sessionEvents.page(params.id, query.since, query.limit);
  });

  addRoute(app, ops.retrieveSessionLogs, async ({ params }) => {
    if (!(await sessionRecords.isOver(params.id))) return { logs: null };
    return { logs: (await app.sessionEvents.page(params.id, 0, 100_000)).events };
  });
}
