import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { RunService } from '../../runs/runService.ts';

declare module 'fastify' {
  interface FastifyInstance {
    runs: RunService;
  }
}

/**
 * app.runs: workflow runs, shared by the run routes and the run-control calls. On ready it fails
 * the runs a previous process left (after the session manager has reaped their browsers and the
 * webhook loop has started); on close it stops every run, each recorded as failed.
 */
export const runsService = fp(
  async (app: FastifyInstance) => {
    const runs = new RunService({
      config: app.config,
      db: app.db,
      bus: app.bus,
      log: app.log,
      sessions: app.sessions,
      urls: app.urls,
      workflows: app.workflows,
      credentials: app.credentials,
      webhooks: app.webhooks,
      sessionEvents: app.sessionEvents,
      artifacts: app.artifacts,
      recordings: app.recordings,
    });
    app.decorate('runs', runs);
    app.addHook('onReady', async () => {
      await runs.recoverInterrupted();
    });
    app.addHook('onClose', () => runs.closeAll());
  },
  {
    name: 'runs',
    dependencies: ['sessions', 'webhooks', 'workflows', 'credentials', 'sessionEvents', 'artifacts', 'recordings'],
  },
);
