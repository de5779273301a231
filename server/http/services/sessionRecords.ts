import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { runsRepo } from '../../store/runs.ts';
import { sessionsRepo } from '../../store/sessions.ts';
import { SessionClientCounts } from '../../sessions/clientCounts.ts';
import { SessionRecords } from '../../sessions/sessionRecords.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessionRecords: SessionRecords;
  }
}

/** app.sessionRecords: sessions as the API shows them, for the session, run-control, log and artifact routes. */
export const sessionRecordsService = fp(
  async (app: FastifyInstance) => {
    const clients = new SessionClientCounts(app.bus);
    app.addHook('onClose', async () => clients.stop());
    app.decorate(
      'sessionRecords',
      new SessionRecords({
        config: app.config,
        sessions: sessionsRepo(app.db, app.config.nodeId),
        runs: runsRepo(app.db, app.config.nodeId),
        manager: app.sessions,
        workflows: app.workflows,
        clients,
        // app.runs is registered after the routes that start sessions: asked at call time.
        activity: {
          isRunning: (id) => app.runs.isRunning(id),
          pauseOf: (id) => app.runs.pauseOf(id),
          queuePosition: (id) => app.runs.queue.position(id),
          leaveQueue: (id) => app.runs.queue.leave(id),
        },
      }),
    );
  },
  { name: 'sessionRecords', dependencies: ['sessions', 'workflows'] },
);
