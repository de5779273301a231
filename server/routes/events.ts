import type { FastifyInstance } from 'fastify';
import { eventOperations, type ServerEvent } from '../../contract/events.ts';
import { addRoute } from '../http/route.ts';
import { longLivedStreams } from '../http/sse.ts';

/** GET /api/events: relays bus events the dashboard refetches on; ids only. */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const openStream = longLivedStreams(app);

  addRoute(app, eventOperations.events, (_input, _req, reply) => {
    const unsubscribe: (() => void)[] = [];
    const sse = openStream(reply, () => {
      for (const off of unsubscribe) off();
    });
    const send = (e: ServerEvent) => sse.send(e, e.type);
    unsubscribe.push(
      app.bus.on('session.changed', ({ session_id }) => send({ type: 'session.changed', session_id })),
      app.bus.on('run.step', ({ session_id, index }) => send({ type: 'run.step', session_id, index })),
      app.bus.on('run.completed', ({ session_id, succeeded }) => send({ type: 'run.completed', session_id, succeeded })),
    );
    sse.comment('connected');
  });
}
