import type { FastifyInstance } from 'fastify';
import { runOperations } from '../../contract/runs.ts';
import { addRoute } from '../http/route.ts';

/** GET /api/webhooks/secret: the whsec_ secret receivers verify signatures with; POST …/rotate replaces it. */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, runOperations.webhookSecret, async () => ({ secret: await app.webhooks.secret() }));
  addRoute(app, runOperations.rotateWebhookSecret, async () => {
    const secret = await app.webhooks.rotateSecret();
    // Said so an operator can tell when receivers started failing verification; the secret itself is never logged.
    app.log.info('webhook signing secret rotated');
    return { secret };
  });
}
