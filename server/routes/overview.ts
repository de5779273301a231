import type { FastifyInstance } from 'fastify';
import { overviewOperations } from '../../contract/overview.ts';
import { addRoute } from '../http/route.ts';

export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, overviewOperations.getOverview, ({ query }, _req, reply) => {
    // Counts of now: a proxy's copy would show yesterday's capacity.
    reply.header('cache-control', 'no-store');
    return app.overview.get({ since: query.since });
  });
}
