import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import type { Config } from './config.ts';
import { buildServices, type Services } from './services.ts';
import { installErrorHandler } from './http/errors.ts';
import { installApiKeyAuth } from './http/auth.ts';
import { installConnectionLimits, serverTimeouts } from './http/connectionLimits.ts';
import { installForwarding } from './http/forwarding/forward.ts';
import { serveDashboard } from './http/dashboard.ts';
import { loggerOptions, type LogDestination } from './http/logger.ts';
import { metaRoutes } from './routes/meta.ts';
import { eventRoutes } from './routes/events.ts';
import { sessionViewRoutes } from './routes/sessionViews.ts';
import { workflowRoutes } from './routes/workflows.ts';
import { workflowCodeRoutes } from './routes/workflowCode.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { runRoutes } from './routes/runs.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { cdpProxyRoutes } from './routes/cdpProxy.ts';
import { writeRoutes } from './routes/write.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { profileRoutes } from './routes/profiles.ts';
import { runControlRoutes } from './routes/runControl.ts';
import { sessionEventRoutes } from './routes/sessionEvents.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { recordingRoutes } from './routes/recordings.ts';
import { recorderRoutes } from './routes/recorder.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { agentRoutes } from './routes/agent.ts';
import { overviewRoutes } from './routes/overview.ts';
import { apiKeyRoutes } from './routes/apiKeys.ts';
import { cliAuthRoutes } from './routes/cliAuth.ts';
import { nodeRoutes } from './routes/nodes.ts';

declare module 'fastify' {
  // Route plugins reach every service as app.<name> (server/services.ts builds them).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members come from Services
  interface FastifyInstance extends Services {}
}

export const BODY_LIMIT = 1024 * 1024;

/**
 * Build the service without listening, so tests can start it on port 0. `logTo`: where its log
 * lines go instead of stdout (a test keeps them, to show when a test fails).
 */
export async function buildApp(config: Config, logTo?: LogDestination): Promise<FastifyInstance> {
  // maxParamLength: a kept file's name (up to 200 bytes, percent-encoded) is a path parameter of its download_url.
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, logTo),
    bodyLimit: BODY_LIMIT,
    trustProxy: false,
    routerOptions: { maxParamLength: 1024 },
    ...serverTimeouts(config),
  });
  // Before any other hook or route: idle connections and connections per address are bounded.
  installConnectionLimits(app, config);
  const built = await buildServices(config, { log: app.log, address: () => app.server.address() });
  for (const [name, service] of Object.entries(built.services) as [string, unknown][]) app.decorate(name, service);
  // After every plugin's onReady: what a previous process left is settled, then work is taken.
  app.addHook('onReady', () => built.start());
  app.addHook('onListen', async () => built.listening());
  app.addHook('preClose', () => built.quiesce());
  app.addHook('onClose', () => built.close());

  installErrorHandler(app);
  // The API speaks JSON (and multipart on /run_workflow): without this, Fastify's text/plain parser
  // would turn a wrong content type into a 422 about a string instead of a 415.
  app.removeContentTypeParser('text/plain');
  // Simplex's clients send their "form" calls urlencoded; each operation still lists what it accepts (415 otherwise).
  await app.register(formbody);
  if (config.CORS_ORIGINS.length) {
    await app.register(cors, {
      origin: config.CORS_ORIGINS,
      allowedHeaders: ['content-type', 'x-api-key'],
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
    });
  }
  await app.register(websocket, { options: { maxPayload: 4 * 1024 * 1024 } });
  installApiKeyAuth(app);
  installForwarding(app);

  // Route plugins, one line each: thin, over the services above.
  await app.register(metaRoutes, { prefix: '/api' });
  await app.register(sessionRoutes, { prefix: '/api' });
  await app.register(cdpProxyRoutes);
  await app.register(eventRoutes, { prefix: '/api' });
  await app.register(writeRoutes, { prefix: '/api' });
  await app.register(workflowRoutes, { prefix: '/api' });
  await app.register(workflowCodeRoutes, { prefix: '/api' });
  await app.register(webhookRoutes, { prefix: '/api' });
  await app.register(credentialRoutes, { prefix: '/api' });
  await app.register(profileRoutes, { prefix: '/api' });
  await app.register(runRoutes, { prefix: '/api' });
  await app.register(runControlRoutes, { prefix: '/api' });
  await app.register(sessionEventRoutes, { prefix: '/api' });
  await app.register(artifactRoutes, { prefix: '/api' });
  await app.register(recordingRoutes, { prefix: '/api' });
  await app.register(recorderRoutes, { prefix: '/api' });
  await app.register(mcpRoutes, { prefix: '/api' });
  await app.register(agentRoutes, { prefix: '/api' });
  await app.register(overviewRoutes, { prefix: '/api' });
  await app.register(apiKeyRoutes, { prefix: '/api' });
  await app.register(cliAuthRoutes, { prefix: '/api' });
  await app.register(nodeRoutes, { prefix: '/api' });
  await app.register(sessionViewRoutes);

  await serveDashboard(app);
  return app;
}
