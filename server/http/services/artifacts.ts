import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sessionsRepo } from '../../store/sessions.ts';
import { Artifacts } from '../../artifacts/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    artifacts: Artifacts;
  }
}

/** How often retention looks at the artifacts besides at start. */
const SWEEP_EVERY_MS = 5 * 60_000;

/**
 * app.artifacts: each session's downloads and storage state (and the folder its recording shares),
 * fed by the session lifecycle hooks. Retention runs on ready (after the session manager has
 * marked a previous process's sessions ended) and then on an unref'd timer cleared on close.
 */
export const artifactsService = fp(
  async (app: FastifyInstance) => {
    const sessions = sessionsRepo(app.db, app.config.nodeId);
    const artifacts = new Artifacts({
      dataDir: app.config.dataDir,
      maxDownloadBytes: app.config.MAX_DOWNLOAD_BYTES,
      maxBytes: app.config.ARTIFACTS_MAX_BYTES,
      ttlDays: app.config.ARTIFACTS_TTL_DAYS,
      sessions: app.sessions,
      sessionRow: (id) => sessions.get(id),
      bus: app.bus,
      log: app.log,
    });
    app.decorate('artifacts', artifacts);
    app.sessions.addLifecycleHooks(artifacts.hooks);

    let timer: NodeJS.Timeout | undefined;
    let sweeping: Promise<unknown> = Promise.resolve();
    const sweep = () => {
      sweeping = artifacts.sweep().catch((err: unknown) => app.log.warn({ err }, 'artifact retention failed'));
      return sweeping;
    };
    app.addHook('onReady', async () => {
      await sweep();
      timer = setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await sweeping;
    });
  },
  { name: 'artifacts', dependencies: ['sessions'] },
);
