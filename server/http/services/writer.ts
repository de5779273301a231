import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { writesRepo } from '../../store/writes.ts';
import { WriteService } from '../../writer/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    writer: WriteService;
  }
}

/** The writing service, shared with fastify-plugin so the route plugin (and others) can reach it. */
export const writerService = fp(
  async (app: FastifyInstance) => {
    const service = new WriteService(app.config, writesRepo(app.db), app.log);
    app.decorate('writer', service);
    // preClose: model calls under way would keep the server's close waiting on their requests.
    app.addHook('preClose', async () => service.abortAll());
    app.addHook('onClose', async () => service.close());
  },
  { name: 'writer' },
);
