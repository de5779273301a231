import type { FastifyInstance } from 'fastify';
import { eventOperations, type ServerEvent } from '../../contract/events.ts';
import { addRoute } from '../http/route.ts';
import { longLivedStreams } from '../http/sse.ts';

/**
 * GET /api/events: relays what the dashboard refetches on; ids only. The source is
 * app.serverEvents: this node's bus events and, in a cluster, every other node's (eventRelay.ts).
 */
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const openStream = longLivedStreams(app);

  addRoute(app, eventOperations.events, (_input, _req, reply) => {
    let unsubscribe = () => {};
    const sse = openStream(reply, () => unsubscribe());
    unsubscribe = app.serverEvents.on((e: ServerEvent) => sse.send(e, e.type));
    sse.comment('connected');
  });
}
