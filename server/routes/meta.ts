import type { FastifyInstance } from 'fastify';
import { metaOperations } from '../../contract/meta.ts';
import { buildOpenApiDocument } from '../../contract/openapi.ts';
import { addRoute } from '../http/route.ts';

const VERSION = '1.0.0';

export async function metaRoutes(app: FastifyInstance): Promise<void> {
  let doc: Record<string, unknown> | undefined;
  addRoute(app, metaOperations.healthz, () => ({ status: 'ok' as const, version: VERSION }));
  addRoute(app, metaOperations.readyz, (_input, _req, reply) => {
    const sessions = app.sessions.active;
    const max = app.config.MAX_SESSIONS;
    const draining = app.sessions.draining;
    // A full node stays ready: it serves, and the cluster places what it cannot take (contract/meta.ts).
    const ready = !draining;
    const room = !draining && sessions < max;
    // No caching: a probe must see the count of now, not of a proxy's copy.
    reply.header('cache-control', 'no-store').status(ready ? 200 : 503);
    return { ready, room, draining, sessions, max_sessions: max };
  });
  addRoute(app, metaOperations.serverInfo, () => ({
    version: VERSION,
    writer_configured: app.model.choice.configured,
    proxy_configured: Boolean(app.config.PROXY_URL),
    max_sessions: app.config.MAX_SESSIONS,
    api_key_file:
      'DATA_DIR/api-key (created on first start when BROWSERDESK_API_KEY is unset); manage keys with npm run keys',
  }));
  addRoute(app, metaOperations.openapi, () => (doc ??= buildOpenApiDocument(`${app.publicUrl()}/api`)));
}
