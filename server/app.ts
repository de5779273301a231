import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import type { Config } from './config.ts';
import { openStore, type Sql } from './store/db.ts';
import { apiKeysRepo, type ApiKeysRepo } from './store/apiKeys.ts';
import { workflowsRepo, type WorkflowsRepo } from './store/workflows.ts';
import { installErrorHandler } from './http/errors.ts';
import { Membership } from './cluster/membership.ts';
import { reapDeadNodes } from './cluster/reaper.ts';
import { nodesRepo } from './store/nodes.ts';
import { installApiKeyAuth } from './http/auth.ts';
import { installConnectionLimits, serverTimeouts } from './http/connectionLimits.ts';
import { installForwarding } from './http/forwarding/forward.ts';
import { bootstrapApiKey } from './secrets/apiKeys.ts';
import { serveDashboard } from './http/dashboard.ts';
import { loggerOptions } from './http/logger.ts';
import { metaRoutes } from './routes/meta.ts';
import { eventRoutes } from './routes/events.ts';
import { sessionViewRoutes } from './routes/sessionViews.ts';
import { workflowRoutes } from './routes/workflows.ts';
import { webhooksService } from './http/services/webhooks.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { runRoutes } from './routes/runs.ts';
import { sessionsPlugin } from './http/services/sessions.ts';
import { sessionRecordsService } from './http/services/sessionRecords.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { cdpProxyRoutes } from './routes/cdpProxy.ts';
import { writerService } from './http/services/writer.ts';
import { writeRoutes } from './routes/write.ts';
import { Bus } from './events/bus.ts';
import { PublicUrls } from './sessions/publicUrls.ts';
import { onBusServerEvents, ServerEvents } from './events/serverEvents.ts';
import { EventRelay } from './cluster/eventRelay.ts';
import { sessionEventsService } from './http/services/sessionEvents.ts';
import { runsService } from './http/services/runs.ts';
import { workflowsService } from './http/services/workflows.ts';
import { loadSecretKey, subKey } from './secrets/secretKey.ts';
import { credentialsService } from './http/services/credentials.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { runControlRoutes } from './routes/runControl.ts';
import { sessionEventRoutes } from './routes/sessionEvents.ts';
import { artifactsService } from './http/services/artifacts.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { recordingService } from './http/services/recordings.ts';
import { recordingRoutes } from './routes/recordings.ts';
import { agentToolsService } from './http/services/agentTools.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { agentService } from './http/services/agent.ts';
import { agentRoutes } from './routes/agent.ts';
import { overviewService } from './http/services/overview.ts';
import { overviewRoutes } from './routes/overview.ts';
import { apiKeyAdminService } from './http/services/apiKeys.ts';
import { apiKeyRoutes } from './routes/apiKeys.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The store's engine (SQLite or Postgres); repositories in store/ are built over it. */
    db: Sql;
    store: { apiKeys: ApiKeysRepo; workflows: WorkflowsRepo };
    bus: Bus;
    /** What GET /api/events streams: this node's bus events, and in a cluster the other nodes' (cluster/eventRelay.ts). */
    serverEvents: ServerEvents;
    /** Base URL handed out in session URLs: PUBLIC_URL, else the address we listen on. Never the Host header. */
    publicUrl(): string;
    /** Signs the tokens of URLs we hand out that must outlive a session (logs_url, screenshot_url): derived from the secret key. */
    urlSigningKey: Buffer;
    /** The URLs a session's holder is handed (capability and signed ones), over publicUrl(). */
    urls: PublicUrls;
    /** The server's master key (BROWSERDESK_SECRET_KEY or DATA_DIR/secret-key): only subKey() derivations of it are used. */
    secretKey: Buffer;
  }
}

export const BODY_LIMIT = 1024 * 1024;

/** Build the service without listening, so tests can start it on port 0. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  // maxParamLength: a kept file's name (up to 200 bytes, percent-encoded) is a path parameter of its download_url.
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL),
    bodyLimit: BODY_LIMIT,
    trustProxy: false,
    routerOptions: { maxParamLength: 1024 },
    ...serverTimeouts(config),
  });
  // Before any other hook or route: idle connections and connections per address are bounded.
  installConnectionLimits(app, config);
  // Before the database: a key we cannot use stops the start with nothing else opened.
  const secretKey = loadSecretKey(config.dataDir, config.BROWSERDESK_SECRET_KEY, app.log);
  const db = await openStore({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL });
  app.decorate('config', config);
  app.decorate('bus', new Bus());
  app.decorate('serverEvents', new ServerEvents());
  onBusServerEvents(app.bus, (e) => app.serverEvents.emit(e));
  app.decorate('db', db);
  app.decorate('secretKey', secretKey);
  app.decorate('urlSigningKey', subKey(secretKey, 'signed-urls'));
  app.decorate('store', { apiKeys: apiKeysRepo(db), workflows: workflowsRepo(db) });
  app.decorate('publicUrl', () => {
    if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/$/, '');
    const addr = app.server.address();
    const port = addr && typeof addr === 'object' ? addr.port : config.PORT;
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  });
  app.decorate('urls', new PublicUrls({ base: () => app.publicUrl(), signingKey: app.urlSigningKey }));
  app.addHook('onClose', async () => db.close());
  // This node in the shared store. Its onClose is added before every plugin's, so it runs after them
  // (Fastify closes in reverse): the node says it stopped only once its sessions have ended in order.
  const membership = new Membership({
    config,
    nodes: nodesRepo(db),
    load: () => app.sessions.active,
    onBeat: (deadBefore) =>
      reapDeadNodes({ nodeId: config.nodeId, db, bus: app.bus, log: app.log, runs: app.runs }, deadBefore),
    log: app.log,
  });
  app.decorate('cluster', membership);
  app.addHook('onClose', () => membership.stop());
  // A cluster's nodes tell each other what changed, for every node's /api/events (on SQLite or a
  // single node there is no one to tell). Its onClose runs after the plugins' (sessions ended and
  // told) and before the store closes.
  const relay =
    db.engine === 'postgres' && config.NODE_URL && config.DATABASE_URL
      ? new EventRelay({
          databaseUrl: config.DATABASE_URL,
          nodeId: config.nodeId,
          db,
          bus: app.bus,
          serverEvents: app.serverEvents,
          log: app.log,
        })
      : null;
  if (relay) app.addHook('onClose', () => relay.stop());

  const written = await bootstrapApiKey(app.store.apiKeys, config.dataDir, config.BROWSERDESK_API_KEY);
  if (written) app.log.warn(`Created the first API key; it is in ${written} (readable by this user only)`);

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

  // Domain services (decorate the instance with fastify-plugin) and their route plugins, one line
  // each, services first. Sessions come before workflows: a run starts a session.
  await app.register(sessionsPlugin);
  await app.register(sessionEventsService);
  await app.register(artifactsService);
  await app.register(recordingService);
  await app.register(workflowsService);
  await app.register(sessionRecordsService);
  await app.register(metaRoutes, { prefix: '/api' });
  await app.register(sessionRoutes, { prefix: '/api' });
  await app.register(cdpProxyRoutes);
  await app.register(eventRoutes, { prefix: '/api' });
  await app.register(writerService);
  await app.register(writeRoutes, { prefix: '/api' });
  await app.register(webhooksService);
  await app.register(workflowRoutes, { prefix: '/api' });
  await app.register(webhookRoutes, { prefix: '/api' });
  await app.register(credentialsService);
  await app.register(credentialRoutes, { prefix: '/api' });
  await app.register(runsService);
  await app.register(runRoutes, { prefix: '/api' });
  await app.register(runControlRoutes, { prefix: '/api' });
  await app.register(sessionEventRoutes, { prefix: '/api' });
  await app.register(artifactRoutes, { prefix: '/api' });
  await app.register(recordingRoutes, { prefix: '/api' });
  await app.register(agentToolsService);
  await app.register(mcpRoutes, { prefix: '/api' });
  await app.register(agentService);
  await app.register(agentRoutes, { prefix: '/api' });
  await app.register(overviewService);
  await app.register(overviewRoutes, { prefix: '/api' });
  await app.register(apiKeyAdminService);
  await app.register(apiKeyRoutes, { prefix: '/api' });

  await app.register(sessionViewRoutes);

  await serveDashboard(app);
  // After every plugin's onReady (the previous process's sessions and runs are settled first).
  app.addHook('onReady', async () => {
    await membership.start();
    // Queued runs only once other nodes can see this one alive (workflows/queue/sharedRunQueue.ts).
    app.runs.queue.take();
  });
  if (relay) app.addHook('onReady', () => relay.listen());
  app.bus.on('session.changed', () => membership.reportLoad());
  return app;
}
