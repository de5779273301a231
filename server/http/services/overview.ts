import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { overviewRepo } from '../../store/overview.ts';
import { OverviewService } from '../../overview/overviewService.ts';

declare module 'fastify' {
  interface FastifyInstance {
    overview: OverviewService;
  }
}

/** app.overview: the dashboard home's counts, from the store and this node's session manager. */
export const overviewService = fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'overview',
      new OverviewService({
        store: overviewRepo(app.db),
        capacity: () => ({ sessions: app.sessions.active, pool: app.warmPool() }),
        config: app.config,
      }),
    );
  },
  { name: 'overview', dependencies: ['sessions'] },
);
