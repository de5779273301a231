import type { FastifyInstance } from 'fastify';
import { runOperations } from '../../contract/runs.ts';
import { webhookDeliveryOperations as deliveries } from '../../contract/webhookDeliveries.ts';
import { Conflict, NotFound } from '../domain/errors.ts';
import { pageOf } from '../domain/pages.ts';
import { addRoute } from '../http/route.ts';
import { deliveryDetailOf, deliveryOf } from '../webhooks/deliveryView.ts';

/**
 * GET /api/webhooks/secret: the whsec_ secret receivers verify signatures with; POST …/rotate replaces it.
 * GET /api/webhooks/deliveries[/{id}]: the outbox, the body only of one; POST …/{id}/retry sends a failed one again.
 */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, runOperations.webhookSecret, async () => ({ secret: await app.webhooks.secret() }));
  addRoute(app, runOperations.rotateWebhookSecret, async () => {
    const secret = await app.webhooks.rotateSecret();
    // Said so an operator can tell when receivers started failing verification; the secret itself is never logged.
    app.log.info('webhook signing secret rotated');
    return { secret };
  });

  addRoute(app, deliveries.listWebhookDeliveries, ({ query }) =>
    pageOf(query, (limit, before) => app.webhooks.recent(limit, before, query.status), deliveryOf),
  );
  addRoute(app, deliveries.getWebhookDelivery, async ({ params }) => {
    const row = await app.webhooks.delivery(params.id);
    if (!row) throw new NotFound('Webhook delivery');
    return deliveryDetailOf(row);
  });
  addRoute(app, deliveries.retryWebhookDelivery, async ({ params }) => {
    const outcome = await app.webhooks.retry(params.id);
    if (outcome === undefined) throw new NotFound('Webhook delivery');
    if ('notRetryable' in outcome)
      throw new Conflict(
        `Only a failed, disabled or refused delivery can be retried; this one is ${outcome.notRetryable.status}`,
      );
    return deliveryOf(outcome.sent);
  });
}
