import type { FastifyInstance } from 'fastify';
import { recorderOperations as ops } from '../../contract/recorder.ts';
import { Conflict } from '../domain/errors.ts';
import { addRoute } from '../http/route.ts';

/**
 * A live session's recorder (contract/recorder.ts; the domain is server/recorder/). Forwarded to the
 * session's own node in a cluster (the operations name the session), as every session route is.
 */
export async function recorderRoutes(app: FastifyInstance): Promise<void> {
  const { sessionRecords, sessions, recorders } = app;

  addRoute(app, ops.startRecorder, async ({ params }, _req, reply) => {
    const session = await sessionRecords.get(params.id);
    const live = session.state === 'ended' ? undefined : sessions.get(params.id);
    if (!live || live.state !== 'live')
      throw new Conflict(
        session.state === 'ended'
          ? `Session ${params.id} has ended: a recorder records a live session (start a new one)`
          : `Session ${params.id} is not live yet: ask again once it is`,
      );
    return reply.status(201).send(await recorders.start(live));
  });

  addRoute(app, ops.getRecorder, async ({ params }) => {
    await sessionRecords.assertExists(params.id);
    return recorders.state(params.id);
  });

  addRoute(app, ops.stopRecorder, async ({ params }) => {
    await sessionRecords.assertExists(params.id);
    return recorders.stop(params.id);
  });
}
