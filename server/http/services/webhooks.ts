import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { outboxRepo } from '../../store/outbox.ts';
import { WebhookDispatcher } from '../../webhooks/dispatcher.ts';
import { forwardBusToWebhooks } from '../../webhooks/fromBus.ts';

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookDispatcher;
  }
}

/** The webhook service: outbox + delivery loop, fed from the domain event bus. Shared with fastify-plugin. */
export const webhooksService = fp(
  async (app: FastifyInstance) => {
    const dispatcher = new WebhookDispatcher(outboxRepo(app.db), {
      allowPrivate: app.config.WEBHOOK_ALLOW_PRIVATE,
      log: app.log,
    });
    app.decorate('webhooks', dispatcher);
    const unsubscribe = forwardBusToWebhooks(app.bus, (url, event) => {
      dispatcher.enqueue(url, event).catch((err: unknown) => app.log.error({ err }, 'could not queue a webhook'));
    });
    app.addHook('onReady', async () => dispatcher.start());
    app.addHook('onClose', async () => {
      unsubscribe();
      await dispatcher.stop();
    });
  },
  { name: 'webhooks' },
);
