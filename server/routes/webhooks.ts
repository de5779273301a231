import type { FastifyInstance } from 'fastify';
import { runOperations } from '../../contract/runs.ts';
import { addRoute } from '../http/route.ts';

/** GET /api/webhooks/secret: the whsec_ secret receivers verify signatures with. */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, runOperations.webhookSecret, () => ({ secret: app.webhooks.secret() }));
}
