import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sessionsRepo } from '../../store/sessions.ts';
import { BrowserSessionManager } from '../../sessions/sessionManager.ts';
import type { SessionManager } from '../../sessions/types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionManager;
    /** This node's warm pool now: ready, starting and aimed-for browsers (the overview shows it). */
    warmPool(): BrowserSessionManager['poolStats'];
  }
}

/**
 * app.sessions: the session manager, shared with every plugin. On ready it reaps what a previous
 * process of this DATA_DIR left and fills the warm pool; before close it ends every session, so
 * bridges close their sockets and no process outlives the server.
 */
export const sessionsPlugin = fp(
  async (app: FastifyInstance) => {
    const manager = new BrowserSessionManager({
      config: app.config,
      repo: sessionsRepo(app.db, app.config.nodeId),
      bus: app.bus,
      log: app.log,
    });
    app.decorate('sessions', manager);
    app.decorate('warmPool', () => manager.poolStats);
    app.addHook('onReady', () => manager.start());
    app.addHook('preClose', () => manager.closeAll());
  },
  { name: 'sessions' },
);
